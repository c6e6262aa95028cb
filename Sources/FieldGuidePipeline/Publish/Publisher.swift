import FieldGuide
import FieldGuideArtifact
import FieldGuideArtifactWriter
import FieldGuideCore
import FieldGuideDiagnostics
import Foundation

/// Publishes a run's artifacts into the output directory in one atomic step.
///
/// Layout of the output directory:
///
///     builds/RUN/          aircraft.fgb, birds.fgb, manifest.json, changes.json, changes.md, reports/,
///                          history.fgb (the history stage's, `PublishSpec.history`)
///     current  → builds/RUN           (symbolic link, swapped by rename: the one atomic step)
///     previous → builds/EARLIER       (the build that was current before)
///     aircraft.fgb → current/aircraft.fgb, manifest.json → current/manifest.json, …
///
/// Readers that opened the old files keep their mappings; new opens see the new build.
struct Publisher {
    enum Outcome {
        case published(build: String, changes: ChangeReport?)
        case unchanged(build: String)
        /// A guard refused; `staged`: the refused build stays in staging (false when the
        /// artifacts equal the current build's and only a freshness guard refused).
        case refused([RunSummary.Guard], staged: Bool)
    }

    let outputDirectory: String
    let spec: PublishSpec
    let guards: GuardSpec
    let runID: String
    /// Where the new build is assembled before it moves into `builds/`.
    let staging: String
    /// Guards whose refusal is accepted on purpose (`shrink MASTER`): recorded, not refusing.
    var accept: Set<String> = []
    /// The output directory, walked without following links (removing, linking outputs in).
    var tree: OutputTree
    /// Where the freshness guard keeps what it has seen (`SourceFreshness`).
    var freshness: SourceFreshness

    static let currentLink = "current"
    static let previousLink = "previous"
    static let buildsDirectory = "builds"

    /// The build `current` points at (its directory), if any.
    static func currentBuild(in output: String) -> String? {
        let link = output + "/" + currentLink
        guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: link) else { return nil }
        let full = target.hasPrefix("/") ? target : output + "/" + target
        return Glob.isDirectory(full) ? full : nil
    }

    /// Assembles the build from the stages' cached outputs (`file(ref)` gives a reference's
    /// path, nil for the output of a stage that was dropped: it is left out of the build;
    /// path), checks the guards, writes the change report and publishes.
    func publish(file: (String) -> String?, onGuard: (RunSummary.Guard) -> Void) throws(PipelineError) -> Outcome {
        let fm = FileManager.default
        let build = staging + "/build"
        try assemble(build, file: file)

        // One manifest for the build: every emit stage's entries.
        var manifest = Manifest(format: .init(major: Int(ArtifactFormat.majorVersion), minor: Int(ArtifactFormat.minorVersion)), tool: .init(name: ToolInfo.name, version: ToolInfo.version), built: nil, artifacts: [])
        for ref in spec.manifests {
            guard let path = file(ref) else { continue }
            guard let data = fm.contents(atPath: path), let part = try? Manifest.decode(from: data) else {
                throw PipelineError(.io, "\(path): cannot read the stage's manifest")
            }
            for entry in part.artifacts where spec.artifacts.contains(where: { ($0 as NSString).lastPathComponent == entry.file }) {
                manifest = manifest.replacing(entry)
            }
            manifest.built = manifest.built ?? part.built
        }
        let manifestBytes: [UInt8]
        do throws(LocatedError) {
            manifestBytes = try JSON.encode(manifest, for: build + "/manifest.json")
            try AtomicFile.write(manifestBytes, to: build + "/manifest.json")
        } catch {
            throw PipelineError(error)
        }

        let unchangedDays = try freshness.update(with: manifest)
        let current = Self.currentBuild(in: outputDirectory)
        let currentManifestData = current.flatMap { fm.contents(atPath: $0 + "/manifest.json") }
        if let current, let currentManifestData, [UInt8](currentManifestData) == manifestBytes, Self.sameHistory(build, current) {
            try? tree.remove(Self.relative(build, to: outputDirectory))
            // A run killed while publishing may have swapped `current` but not every name beside it.
            try pointNames(manifest, onlyMissing: true)
            // The same artifacts: only how long the sources have stayed the same is news.
            let stale = settle(Guards.check(GuardSpec(freshness: guards.freshness), new: manifest, published: nil,
                                            unchangedDays: unchangedDays), onGuard: onGuard)
            if !stale.isEmpty { return .refused(stale, staged: false) }
            return .unchanged(build: Self.relative(current, to: outputDirectory))
        }

        let published = currentManifestData.flatMap { try? Manifest.decode(from: $0) }
        let refusing = settle(Guards.check(guards, new: manifest, published: published, unchangedDays: unchangedDays), onGuard: onGuard)
        if !refusing.isEmpty { return .refused(refusing, staged: true) }

        // The morning-after report against the current build.
        var report: ChangeReport?
        if let current {
            var parts: [ChangeReport] = []
            // FieldGuide artifacts only: an export (aircraft.sqlite) repeats their content.
            for entry in manifest.artifacts where entry.file.hasSuffix(".fgb") && fm.fileExists(atPath: current + "/" + entry.file) {
                do {
                    parts.append(try ChangeReport.between(old: current + "/" + entry.file, new: build + "/" + entry.file))
                } catch {
                    throw PipelineError(.io, "change report for \(entry.file): \(error)")
                }
            }
            report = ChangeReport.combined(parts)
        }
        do throws(LocatedError) {
            let page = report?.markdown() ?? "# Reference data changes\n\nFirst published build: nothing to compare against.\n"
            try AtomicFile.write(page, to: build + "/changes.md")
            try JSON.write(report ?? ChangeReport.combined([]), to: build + "/changes.json")
        } catch {
            throw PipelineError(error)
        }

        // Move the build in, then swap the links: previous first, current last (the commit point).
        let buildsDir = try tree.directory(Self.buildsDirectory)
        var name = runID
        var suffix = 2
        while fm.fileExists(atPath: buildsDir + "/" + name) { name = "\(runID)-\(suffix)"; suffix += 1 }
        let relativeBuild = Self.buildsDirectory + "/" + name
        guard rename(build, buildsDir + "/" + name) == 0 else {
            throw PipelineError(.io, "publishing \(relativeBuild): cannot move the build in: \(SystemReason.errnoText)")
        }
        if let current {
            try Self.swapLink(outputDirectory + "/" + Self.previousLink, to: Self.relative(current, to: outputDirectory))
        }
        try Self.swapLink(outputDirectory + "/" + Self.currentLink, to: relativeBuild)
        try pointNames(manifest, onlyMissing: false)
        Self.removeDanglingNames(in: outputDirectory)
        prune()
        return .published(build: relativeBuild, changes: report)
    }

    /// Marks the guards accepted on purpose, reports every result, and returns those that refuse.
    private func settle(_ results: [RunSummary.Guard], onGuard: (RunSummary.Guard) -> Void) -> [RunSummary.Guard] {
        let results = results.map { result in
            var result = result
            if !result.held && accept.contains(result.name) { result.accepted = true }
            return result
        }
        results.forEach(onGuard)
        return results.filter { !$0.held && $0.accepted != true }
    }

    /// Links the build's files into the new build directory, from the stages' cached outputs.
    /// Each must be a regular file inside its stage's directory, reached without a link.
    private func assemble(_ build: String, file: (String) -> String?) throws(PipelineError) {
        let relativeBuild = Self.relative(build, to: outputDirectory)
        try tree.remove(relativeBuild)
        try tree.directory(relativeBuild + "/reports")
        for (refs, folder) in [(spec.artifacts, ""), (spec.reports, "reports/")] {
            for ref in refs {
                guard let path = file(ref) else { continue }
                let destination = build + "/" + folder + (ref as NSString).lastPathComponent
                try link(path, to: destination, in: build)
            }
        }
        // The registry history, under the name readers look for beside the aircraft artifact.
        if let ref = spec.history, let path = file(ref) {
            try link(path, to: build + "/" + RegistrationHistoryWriter.file, in: build)
        }
    }

    /// Links the stage output `path` into the build being assembled.
    private func link(_ path: String, to destination: String, in build: String) throws(PipelineError) {
        do {
            try tree.link(Self.relative(path, to: outputDirectory), to: destination)
        } catch {
            throw PipelineError(.io, "assembling the build in \(build): \(error.message)")
        }
    }

    /// Whether the build being assembled carries the current build's history: the same bytes,
    /// or one of the two has none (a build published before the history existed, a pipeline
    /// without a history stage): only the artifacts decide then.
    static func sameHistory(_ build: String, _ current: String) -> Bool {
        let fm = FileManager.default
        guard let published = fm.contents(atPath: current + "/" + RegistrationHistoryWriter.file),
              let new = fm.contents(atPath: build + "/" + RegistrationHistoryWriter.file) else { return true }
        return new == published
    }

    /// Points `OUTPUT/NAME` at `current/NAME` for every artifact, the manifest and the change
    /// page; with `onlyMissing`, only the names that are absent or point elsewhere.
    private func pointNames(_ manifest: Manifest, onlyMissing: Bool) throws(PipelineError) {
        try Self.pointNames(manifest.artifacts.map(\.file), in: outputDirectory, onlyMissing: onlyMissing)
    }

    /// `pointNames` for the artifact files `files` of the build in `output` (and its registry
    /// history when the build has one).
    static func pointNames(_ files: [String], in output: String, onlyMissing: Bool) throws(PipelineError) {
        let history = FileManager.default.fileExists(atPath: output + "/" + currentLink + "/" + RegistrationHistoryWriter.file)
        for file in files + ["manifest.json", "changes.md"] + (history ? [RegistrationHistoryWriter.file] : []) {
            let path = output + "/" + file, target = currentLink + "/" + file
            if onlyMissing, (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) == target { continue }
            try swapLink(path, to: target)
        }
    }

    /// Removes the links beside `current` (`NAME → current/NAME`) whose file the current build
    /// lacks (an `aircraft.sqlite` of a build before, a rollback to a build without it).
    static func removeDanglingNames(in output: String) {
        let fm = FileManager.default
        for name in (try? fm.contentsOfDirectory(atPath: output)) ?? [] {
            guard let target = try? fm.destinationOfSymbolicLink(atPath: output + "/" + name),
                  target == currentLink + "/" + name, !fm.fileExists(atPath: output + "/" + target) else { continue }
            unlink(output + "/" + name)
        }
    }

    /// Removes old builds beyond `keep`, never the current or previous one. Removal never
    /// follows a link (`builds` itself, or anything inside a build).
    private func prune() {
        let fm = FileManager.default
        let keepTargets = Set([Self.currentLink, Self.previousLink].compactMap {
            try? fm.destinationOfSymbolicLink(atPath: outputDirectory + "/" + $0)
        }.map { ($0 as NSString).lastPathComponent })
        let builds = ((try? tree.names(in: Self.buildsDirectory)) ?? []).filter { !$0.hasPrefix(".") }
        var kept = 0
        for build in builds.reversed() {
            if keepTargets.contains(build) || kept < spec.keep {
                kept += 1
                continue
            }
            try? tree.remove(Self.buildsDirectory + "/" + build)
        }
    }


    static func relative(_ path: String, to base: String) -> String {
        path.hasPrefix(base + "/") ? String(path.dropFirst(base.count + 1)) : path
    }

    /// Points the symbolic link at `path` to `target` by renaming a fresh link over it: readers
    /// see the old target or the new one, never neither.
    static func swapLink(_ path: String, to target: String) throws(PipelineError) {
        let temporary = path + ".tmp-\(getpid())"
        unlink(temporary)
        guard symlink(target, temporary) == 0 else {
            throw PipelineError(.io, "\(temporary): cannot create link: \(SystemReason.errnoText)")
        }
        guard rename(temporary, path) == 0 else {
            let reason = SystemReason.errnoText
            unlink(temporary)
            throw PipelineError(.io, "\(path): cannot replace: \(reason)")
        }
    }
}
