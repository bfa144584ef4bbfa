import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A small HTTP/1.1 server on 127.0.0.1, on a port of its own, for tests: each connection gets one
/// response, chosen by the request's path, and is closed.
///
/// - `/hello`: 200, `Hello`.
/// - `/json`: 200, a JSON object `{"name":"Ada","unread":3}`.
/// - `/missing`: 404, `nope`.
/// - `/hang`: no response until the server stops, so a client can cancel mid-request.
/// - `/flaky`: the first ``flakyFailures`` connections are closed without a response; later ones
///   get 200, `recovered`.
final class LoopbackHTTPServer: Sendable {
    /// The port the server listens on.
    let port: UInt16

    /// How many `/flaky` connections are closed without a response before one is answered.
    let flakyFailures: Int

    private let listener: Int32
    private let state = Mutex(State())
    /// Signalled when the accepting thread has returned: only then is the listening socket closed,
    /// so the thread never accepts on a descriptor number the process has reused meanwhile (another
    /// server's, whose connections it would then close unanswered).
    private let acceptingEnded = DispatchSemaphore(value: 0)

    private struct State {
        var requests: [String] = []
        var flakyConnections = 0
        var hanging: [Int32] = []
        var stopped = false
    }

    /// The paths requested so far, in order.
    var requestedPaths: [String] { state.withLock { $0.requests } }

    /// Starts listening on a free port of 127.0.0.1.
    init(flakyFailures: Int = 0) throws {
        self.flakyFailures = flakyFailures
        let socket = Self.makeSocket()
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(socket, 16) == 0 else {
            close(socket)
            throw LoopbackError.cannotListen
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &length) }
        }
        port = UInt16(bigEndian: address.sin_port)
        listener = socket
        let thread = Thread { [self] in
            acceptConnections()
            acceptingEnded.signal()
        }
        thread.start()
    }

    /// The URL of `path` on this server.
    func url(_ path: String) -> URL {
        URL(string: "http://127.0.0.1:\(port)\(path)")!
    }

    /// Stops accepting connections and closes those left hanging.
    func stop() {
        let hanging = state.withLock { state -> [Int32] in
            state.stopped = true
            defer { state.hanging = [] }
            return state.hanging
        }
        for connection in hanging { close(connection) }
        shutdown(listener, Int32(SHUT_RDWR))
        acceptingEnded.wait()
        close(listener)
    }

    /// A port on 127.0.0.1 that nothing listens on: bound, then closed.
    static func closedPort() throws -> UInt16 {
        let server = try LoopbackHTTPServer()
        server.stop()
        return server.port
    }

    private static func makeSocket() -> Int32 {
        #if canImport(Glibc)
            let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let socket = Darwin.socket(AF_INET, SOCK_STREAM, 0)
        #endif
        var reuse: Int32 = 1
        setsockopt(socket, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
        return socket
    }

    private func acceptConnections() {
        while true {
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { return }
            if state.withLock({ $0.stopped }) {
                close(connection)
                return
            }
            let thread = Thread { [self] in serve(connection) }
            thread.start()
        }
    }

    private func serve(_ connection: Int32) {
        guard let path = readRequestPath(connection) else {
            close(connection)
            return
        }
        let action = state.withLock { state -> Action in
            state.requests.append(path)
            switch path {
            case "/hello": return .respond(200, "Hello")
            case "/json": return .respond(200, #"{"name":"Ada","unread":3}"#)
            case "/hang":
                state.hanging.append(connection)
                return .hang
            case "/flaky":
                state.flakyConnections += 1
                return state.flakyConnections <= flakyFailures ? .drop : .respond(200, "recovered")
            default: return .respond(404, "nope")
            }
        }
        switch action {
        case .respond(let status, let body):
            let reason = status == 200 ? "OK" : "Not Found"
            let response =
                "HTTP/1.1 \(status) \(reason)\r\nContent-Type: text/plain\r\nContent-Length: \(body.utf8.count)\r\n"
                + "Cache-Control: no-store\r\nConnection: close\r\n\r\n\(body)"
            let bytes = Array(response.utf8)
            _ = bytes.withUnsafeBytes { send(connection, $0.baseAddress, $0.count, 0) }
            close(connection)
        case .drop:
            close(connection)
        case .hang:
            break
        }
    }

    private enum Action {
        case respond(Int, String)
        case drop
        case hang
    }

    /// Reads the request's head and returns its path.
    private func readRequestPath(_ connection: Int32) -> String? {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !received.isEmpty ? !String(decoding: received, as: UTF8.self).contains("\r\n\r\n") : true {
            let count = buffer.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { return nil }
            received += buffer[0..<count]
        }
        let requestLine = String(decoding: received, as: UTF8.self).split(separator: "\r\n").first ?? ""
        let parts = requestLine.split(separator: " ")
        return parts.count >= 2 ? String(parts[1]) : nil
    }
}

enum LoopbackError: Error {
    case cannotListen
}
