import Streams
import Testing

@Suite struct BindingTests {
    struct Profile: Equatable {
        var name = ""
        var address = Address()
    }

    struct Address: Equatable {
        var city = ""
    }

    @Test func getAndSetRoundTrip() {
        var storage = 1
        let binding = Binding(get: { storage }, set: { storage = $0 })
        binding.wrappedValue = 5
        #expect(storage == 5)
        storage = 6
        #expect(binding.wrappedValue == 6)
        #expect(binding.projectedValue.wrappedValue == 6)
    }

    @Test func constantIgnoresWrites() {
        let binding = Binding.constant("fixed")
        binding.wrappedValue = "changed"
        #expect(binding.wrappedValue == "fixed")
    }

    @Test func dynamicMemberProjectionWritesBack() {
        let subject = CurrentValueSubject<Profile, Never>(Profile())
        var sent: [Profile] = []
        let cancellable = subject.sink { sent.append($0) }
        let city = subject.binding.address.city
        city.wrappedValue = "Lyon"
        #expect(subject.value.address.city == "Lyon")
        #expect(sent.count == 2)
        _ = cancellable
    }

    @Test func bindingForKeyPathAndDispatched() {
        let subject = CurrentValueSubject<Profile, Never>(Profile())
        subject.binding(for: \.name).wrappedValue = "Ada"
        #expect(subject.value.name == "Ada")
        let dispatched = Binding.dispatched(to: subject, \.address.city)
        dispatched.wrappedValue = "Paris"
        #expect(subject.value == Profile(name: "Ada", address: Address(city: "Paris")))
        #expect(dispatched.wrappedValue == "Paris")
    }

    @Test func propertyWrapperSyntax() {
        struct Editor {
            @Binding var text: String
        }
        var storage = "a"
        let editor = Editor(text: Binding(get: { storage }, set: { storage = $0 }))
        editor.text = "b"
        #expect(storage == "b")
        #expect(editor.$text.wrappedValue == "b")
    }
}
