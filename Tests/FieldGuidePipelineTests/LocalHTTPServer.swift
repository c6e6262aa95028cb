import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A one-thread HTTP/1.1 server on 127.0.0.1 for webhook tests: it records each request's
/// body and answers with `status`, or holds the connection without answering (`answer:
/// false`) until it is stopped. Bounded: it serves at most `limit` connections, and `stop()`
/// closes everything.
final class LocalHTTPServer: @unchecked Sendable {
    let port: UInt16
    private let listener: Int32
    private let lock = NSLock()
    private var bodies: [Data] = []
    private var stopped = false
    private let done = DispatchSemaphore(value: 0)

    /// The bodies received so far.
    var received: [Data] { lock.withLock { bodies } }

    init(status: Int, answer: Bool = true, limit: Int = 8) throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.listener = listener
        var yes: Int32 = 1
        setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(listener, 8) == 0 else {
            close(listener)
            throw POSIXError(.EADDRINUSE)
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        port = UInt16(bigEndian: address.sin_port)
        Thread { [self] in
            for _ in 0..<limit {
                let connection = accept(listener, nil, nil)
                if connection < 0 { break }
                handle(connection, status: status, answer: answer)
            }
            done.signal()
        }.start()
    }

    var url: String { "http://127.0.0.1:\(port)/hook" }

    private func handle(_ connection: Int32, status: Int, answer: Bool) {
        var request = Data()
        var buffer = [UInt8](repeating: 0, count: 65_536)
        // Read the head, then Content-Length bytes of body (bounded at 16 MiB).
        while request.count < 16 << 20 {
            let n = read(connection, &buffer, buffer.count)
            if n <= 0 { break }
            request.append(contentsOf: buffer[0..<n])
            if let end = request.range(of: Data("\r\n\r\n".utf8)) {
                let head = String(decoding: request[..<end.lowerBound], as: UTF8.self).lowercased()
                let length = head.split(separator: "\r\n").first { $0.hasPrefix("content-length:") }
                    .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
                if request.count - end.upperBound >= length {
                    lock.withLock { bodies.append(request[end.upperBound..<(end.upperBound + length)]) }
                    break
                }
            }
        }
        if answer {
            let reply = "HTTP/1.1 \(status) Status\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
            _ = reply.withCString { write(connection, $0, strlen($0)) }
        } else {
            // Hold the connection until the server stops (the client times out first).
            while !lock.withLock({ stopped }) { usleep(20_000) }
        }
        close(connection)
    }

    /// Stops accepting and serving; waits for the thread. Once: a second call does nothing.
    ///
    /// (It closed the listener on every call, and a test that stops a server early and again in
    /// a `defer` closed whatever the test process had opened under that number meanwhile: once,
    /// another test's scratch file, which then failed its reads with EBADF.)
    func stop() {
        let first = lock.withLock { () -> Bool in
            defer { stopped = true }
            return !stopped
        }
        guard first else { return }
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
        _ = done.wait(timeout: .now() + 5)
    }
}
