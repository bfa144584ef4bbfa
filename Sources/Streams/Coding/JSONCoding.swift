public import Foundation

extension JSONDecoder: TopLevelDecoder {
    /// The type this decoder accepts: JSON text as `Data`.
    public typealias Input = Data
}

extension JSONEncoder: TopLevelEncoder {
    /// The type this encoder produces: JSON text as `Data`.
    public typealias Output = Data
}
