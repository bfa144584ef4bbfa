/// Ten `Int` fields named `f0` to `f9`, as ``State10`` and each implementation's model of scenarios
/// 9 and 11 have: it gets reading a field by index, written once.
public protocol TenFields {
    var f0: Int { get }
    var f1: Int { get }
    var f2: Int { get }
    var f3: Int { get }
    var f4: Int { get }
    var f5: Int { get }
    var f6: Int { get }
    var f7: Int { get }
    var f8: Int { get }
    var f9: Int { get }
}

extension TenFields {
    /// Reads a field by index. Inlinable, so that it runs specialized for each model, as a method of
    /// its own would.
    @inlinable
    public func field(_ index: Int) -> Int {
        switch index {
        case 0: f0
        case 1: f1
        case 2: f2
        case 3: f3
        case 4: f4
        case 5: f5
        case 6: f6
        case 7: f7
        case 8: f8
        default: f9
        }
    }
}
