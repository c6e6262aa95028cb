import ArgumentParser
import FieldGuideCore
import FieldGuideFetch
import StageCLI

struct FetchFAA: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fetch-faa",
        abstract: "Download the FAA's ReleasableAircraft.zip: conditional, retried, bounded, checked, kept.",
        discussion: """
        Sends If-None-Match / If-Modified-Since from the last download kept in --state, so an \
        unchanged file costs a 304 and the kept copy stands. Retries 5xx answers, time-outs and \
        failed connections with backoff (--retries, --retry-delay doubling up to 60 s); a 4xx is \
        never retried. The body streams to disk and is refused past --max-bytes (default 1G, at \
        most 8G) or when it is shorter than its Content-Length; it must be a ZIP holding \
        ACFTREF.txt, ENGINE.txt and MASTER.txt (or MASTER parts), each entry at most 512 MiB. \
        Only then is it kept in STATE/downloads (the last --keep distinct downloads, 1 to 20, \
        with their SHA-256 in STATE/fetch-state.json) and linked into --output as \
        ReleasableAircraft.zip with the stage report fetch-faa.json.

        Exit status: 0 ok (a 304 too); 1 data rejected (not a ZIP, a file missing from it, a body \
        over the bound or truncated); 2 usage or I/O (a 4xx, every attempt failed, a state or \
        output that cannot be written). On every failure the output and the state are untouched.
        """)

    @Argument(help: "The file's address (http or https), e.g. https://registry.faa.gov/database/ReleasableAircraft.zip.")
    var url: String

    @OptionGroup var output: StageOutput

    @Option(help: "Directory kept across runs: validators and the last downloads (default: --output).")
    var state: String?

    @Option(help: "The User-Agent header sent.")
    var userAgent = FetchOptions.defaultUserAgent

    @Option(help: "Seconds without progress (connecting, awaiting the answer, between body bytes) before an attempt times out.")
    var timeout: Double = 60

    @Option(help: "Seconds one attempt may take in all, body included.")
    var maxTime: Double = 1800

    @Option(help: "Further attempts after a 5xx, a time-out or a failed connection (0 to 10).")
    var retries = 3

    @Option(help: "Seconds before the first retry, doubling for each next one (at most 60).")
    var retryDelay: Double = 2

    @Option(help: "The largest body accepted: bytes, or with K, M or G (binary multiples).")
    var maxBytes = "1G"

    @Option(help: "How many distinct downloads to keep in STATE/downloads (1 to 20).")
    var keep = 3

    func validate() throws { try requirePath(state, option: "--state") }

    func run() throws {
        let log = StageLog(stage: "fetch-faa")
        guard let bytes = FetchOptions.byteCount(maxBytes) else {
            throw StageFailure(.usageOrIO, "--max-bytes: expected a byte count such as 1G, 512M or 4096, found '\(maxBytes)'")
        }
        var options = FetchOptions(url: url, output: output.directory)
        options.state = state
        options.userAgent = userAgent
        options.timeout = timeout
        options.maxTime = maxTime
        options.retries = retries
        options.retryDelay = retryDelay
        options.maxBytes = bytes
        options.keep = keep
        do { _ = try Fetcher(options: options) { log.info($0) }.run() } catch {
            throw StageFailure(error.isDataRejected ? .dataRejected : .usageOrIO, error.description)
        }
    }
}

FetchFAA.runStage(name: "fetch-faa")
