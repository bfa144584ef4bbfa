import Foundation
import Streams

let model = SignUpModel(service: SignUpService())
let printer = model.$canSubmit.removeDuplicates().sink { print("can submit:", $0) }

model.email = "ada@example.com"
model.password = "correct horse"
RunLoop.main.run(until: Date(timeIntervalSinceNow: 0.05))

model.submitTapped.send()
RunLoop.main.run(until: Date(timeIntervalSinceNow: 0.5))
print("status:", model.status)
