import FieldGuideArtifactWriter
import FieldGuideCore
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What `pipeline rollback` did: the build `current` left and the one it points at now.
public struct RollbackResult: Sendable, Equatable {
    /// The build that was current (`builds/20261123T031500Z`); `previous` points at it now.
    public var from: String
    /// The build that was previous and is current now.
    public var to: String
}

extension PipelineRunner {
    /// Swaps `current` back to `previous` in one atomic step (a rename of the `current` link),
    /// under the run lock, then points `previous` at the build rolled back from: a second
    /// rollback undoes the first, and the rolled-back build is never pruned while `previous`
    /// names it. The names beside `current` (`aircraft.fgb`, `manifest.json`, …) follow the
    /// link; one the older build lacks is removed, one it has is added.
    ///
    /// The next run compares with the build that is current then: when its sources still give
    /// the build rolled back from, it publishes that content again as a new build.
    ///
    /// ```swift
    /// let result = try runner.rollback()   // current → builds/EARLIER, previous → builds/LATER
    /// ```
    public func rollback() throws(PipelineError) -> RollbackResult {
        let output = options.outputDirectory
        let lock = try acquireLock()
        defer { close(lock) }
        let current = try linkTarget(Publisher.currentLink, in: output)
        let previous = try linkTarget(Publisher.previousLink, in: output)
        guard let current else {
            throw PipelineError(.io, "\(output): nothing is published yet (no current build): nothing to roll back")
        }
        guard let previous else {
            throw PipelineError(.io, "\(output): no previous build to roll back to (\(current) is the only build published)")
        }
        guard previous != current else {
            throw PipelineError(.io, "\(output): previous and current are both \(current): nothing to roll back to")
        }
        // The build must be a real directory of the pipeline's, not a link out of the output.
        guard try OutputTree(root: output).isDirectory(previous),
              FileManager.default.fileExists(atPath: output + "/" + previous + "/manifest.json") else {
            throw PipelineError(.io, "\(output)/\(previous): previous names a build that is missing or incomplete; nothing was changed")
        }
        let files = (try? Manifest.read(from: output + "/" + previous + "/manifest.json"))?.artifacts.map(\.file) ?? []
        try Publisher.swapLink(output + "/" + Publisher.currentLink, to: previous)
        try Publisher.swapLink(output + "/" + Publisher.previousLink, to: current)
        try Publisher.pointNames(files, in: output, onlyMissing: true)
        Publisher.removeDanglingNames(in: output)
        return RollbackResult(from: current, to: previous)
    }

    /// `builds/RUN` for the link `name`, nil when it is absent; an error when it points
    /// anywhere but a build of this output directory.
    private func linkTarget(_ name: String, in output: String) throws(PipelineError) -> String? {
        guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: output + "/" + name) else { return nil }
        let parts = target.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0] == Substring(Publisher.buildsDirectory), PipelineDefinition.isFileName(String(parts[1])) else {
            throw PipelineError(.io, "\(output)/\(name) points at \(target), not at a build in \(Publisher.buildsDirectory)/; nothing was changed")
        }
        return target
    }

}
