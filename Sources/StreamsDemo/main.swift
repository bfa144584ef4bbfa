print("streams-demo")
