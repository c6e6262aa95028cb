import BenchSupport
import FieldGuide
import FieldGuideArtifact

/// Registry searches drawn from the FAA files the artifact was built from, the way a person
/// types them: an owner's first word cut to four letters, two words with the second cut to
/// three ("delta air"), a state, an ACFTREF code, the start of a model name, a serial number,
/// and an owner prefix within a state.
struct RegistryQueries {
    var sets: [(name: String, queries: [RegistrationQuery])] = []

    init(_ keys: LookupKeys, count: Int, _ rng: inout SplitMix64) {
        let named = keys.owners.filter { !RegistrySearchFolding.words($0.name).isEmpty }
        // Nothing to draw from (a MASTER without rows): no searches, rather than a trap in `pick`.
        guard !named.isEmpty, !keys.modelCodes.isEmpty, !keys.modelNames.isEmpty else { return }
        func draw(_ make: (inout SplitMix64) -> RegistrationQuery?) -> [RegistrationQuery] {
            var queries: [RegistrationQuery] = []
            var attempts = 0
            while queries.count < count && attempts < count * 20 {
                attempts += 1
                if let query = make(&rng) { queries.append(query) }
            }
            return queries
        }
        sets.append(("owner, 1 word, 4 letters", draw { rng in
            RegistrySearchFolding.words(rng.pick(named).name).first.map { .init(owner: String($0.prefix(4)).lowercased()) }
        }))
        sets.append(("owner, 2 words (\"delta air\")", draw { rng in
            let words = RegistrySearchFolding.words(rng.pick(named).name)
            return words.count < 2 ? nil : .init(owner: (words[0] + " " + words[1].prefix(3)).lowercased())
        }))
        sets.append(("state", draw { rng in
            let state = rng.pick(keys.owners).state
            return state.isEmpty ? nil : .init(state: state)
        }))
        sets.append(("model code", draw { rng in .init(model: rng.pick(keys.modelCodes)) }))
        sets.append(("model name, 3 characters", draw { rng in
            let key = RegistrySearchFolding.modelKey(rng.pick(keys.modelNames))
            return key.count < 3 ? nil : .init(model: String(key.prefix(3)))
        }))
        sets.append(("serial number", draw { rng in
            let serial = rng.pick(keys.owners).serial
            return serial.isEmpty ? nil : .init(serialNumber: serial)
        }))
        sets.append(("owner 3 letters + state", draw { rng in
            let owner = rng.pick(named)
            guard !owner.state.isEmpty, let word = RegistrySearchFolding.words(owner.name).first else { return nil }
            return .init(owner: String(word.prefix(3)), state: owner.state)
        }))
    }
}
