import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix

/// What the test server answers to one request.
struct Reply: Sendable {
    var status: HTTPResponseStatus = .ok
    var headers: [(String, String)] = []
    var body: [UInt8] = []
    /// Wait this long before the answer's head (a server slower than the client's time-out).
    var delay: TimeAmount = .zero
    /// Close the connection after this many body bytes, the Content-Length still the whole body's.
    var truncateAfter: Int? = nil
    /// No Content-Length: the body goes chunked.
    var chunked = false

    static func status(_ status: HTTPResponseStatus, _ body: String = "") -> Reply {
        Reply(status: status, headers: [("Content-Type", "text/plain")], body: Array(body.utf8))
    }
}

/// An HTTP/1.1 server on 127.0.0.1 (an ephemeral port) for the fetch tests: each request is
/// answered by `respond(head, n)` (n counts requests from 0) and recorded. Stopped by `stop()`.
///
/// ```swift
/// let server = try TestHTTPServer { _, _ in .status(.forbidden) }
/// defer { server.stop() }
/// server.url   // http://127.0.0.1:PORT/ReleasableAircraft.zip
/// ```
final class TestHTTPServer: @unchecked Sendable {
    private let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    private var channel: Channel!
    private let lock = NSLock()
    private var heads: [HTTPRequestHead] = []
    let respond: @Sendable (HTTPRequestHead, Int) -> Reply

    init(_ respond: @escaping @Sendable (HTTPRequestHead, Int) -> Reply) throws {
        self.respond = respond
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { [unowned self] channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                    try channel.pipeline.syncOperations.addHandler(Handler(server: self))
                }
            }
        channel = try bootstrap.bind(host: "127.0.0.1", port: 0).wait()
    }

    var port: Int { channel.localAddress!.port! }
    var url: String { "http://127.0.0.1:\(port)/ReleasableAircraft.zip" }

    /// The requests received so far.
    var requests: [HTTPRequestHead] { lock.withLock { heads } }

    func stop() {
        try? channel.close().wait()
        try? group.syncShutdownGracefully()
    }

    fileprivate func received(_ head: HTTPRequestHead) -> Reply {
        let n = lock.withLock { heads.append(head); return heads.count - 1 }
        return respond(head, n)
    }

    private final class Handler: ChannelInboundHandler {
        typealias InboundIn = HTTPServerRequestPart
        typealias OutboundOut = HTTPServerResponsePart
        let server: TestHTTPServer
        var head: HTTPRequestHead?
        init(server: TestHTTPServer) { self.server = server }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            switch unwrapInboundIn(data) {
            case .head(let head): self.head = head
            case .body: break
            case .end:
                guard let head else { return }
                let reply = server.received(head)
                context.eventLoop.assumeIsolated().scheduleTask(in: reply.delay) { self.send(reply, context: context) }
            }
        }

        private func send(_ reply: Reply, context: ChannelHandlerContext) {
            var headers = HTTPHeaders(reply.headers)
            if !reply.chunked { headers.replaceOrAdd(name: "Content-Length", value: String(reply.body.count)) }
            context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: reply.status, headers: headers))), promise: nil)
            let sent = reply.truncateAfter.map { Array(reply.body.prefix($0)) } ?? reply.body
            // Large bodies go in pieces, as a server streams them.
            var offset = 0
            while offset < sent.count {
                let piece = sent[offset..<min(sent.count, offset + 16_384)]
                context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: piece)))), promise: nil)
                offset += piece.count
            }
            if reply.truncateAfter != nil {
                context.writeAndFlush(wrapOutboundOut(.body(.byteBuffer(ByteBuffer()))), promise: nil)
                context.close(promise: nil)
            } else {
                context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
            }
        }
    }
}
