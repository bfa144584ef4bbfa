public import Foundation

extension PropertyListDecoder: TopLevelDecoder {
    /// The type this decoder accepts: a property list as `Data`.
    public typealias Input = Data
}

extension PropertyListEncoder: TopLevelEncoder {
    /// The type this encoder produces: a property list as `Data`.
    public typealias Output = Data
}
