import Streams
import Testing

@Suite struct CombineIdentifierTests {
    @Test func freshIdentifiersAreUnique() {
        let identifiers = (0..<1000).map { _ in CombineIdentifier() }
        #expect(Set(identifiers).count == 1000)
    }

    @Test func objectIdentifiersFollowIdentity() {
        let first = Tracked()
        let second = Tracked()
        #expect(CombineIdentifier(first) == CombineIdentifier(first))
        #expect(CombineIdentifier(first) != CombineIdentifier(second))
        #expect(CombineIdentifier(first) != CombineIdentifier())
    }

    @Test func classesGetTheirIdentityByDefault() {
        let sink = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { _ in })
        #expect(sink.combineIdentifier == CombineIdentifier(sink))
    }

    @Test func descriptionIsHexadecimal() {
        #expect(CombineIdentifier().description.hasPrefix("0x"))
    }

    @Test func anObjectsIdentifierPrintsItsAddress() {
        final class Token {}
        let token = Token()
        let address = UInt(bitPattern: ObjectIdentifier(token))
        #expect(CombineIdentifier(token).description == "0x" + String(address, radix: 16))
    }
}
