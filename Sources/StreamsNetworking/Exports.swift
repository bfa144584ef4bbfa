// One `import StreamsNetworking` gives what a program using `dataTaskPublisher` needs: Streams'
// publishers and operators, Foundation, and, where `URLSession` lives in a library of its own
// (Linux), FoundationNetworking.
@_exported public import Foundation
@_exported public import Streams

#if canImport(FoundationNetworking)
    @_exported public import FoundationNetworking
#endif
