/// An error to fail publishers with in tests.
struct TestError: Error, Equatable, Codable {
    var code = 0
}

/// An object whose deallocation tests observe through a weak reference.
final class Tracked {
    var value: Int

    init(_ value: Int = 0) {
        self.value = value
    }
}
