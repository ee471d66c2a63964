/// The known name nearest a misspelt one, for "did you mean".
///
/// Near is at most 2 edits (1 when either name has 3 letters or fewer, and
/// never every letter), in any case and with `_` optional, a swap of two
/// letters counting as one edit. When names for different keys are as near,
/// nothing is offered: a guess between them would be a coin toss.
enum KeyNameSuggestion {
    /// Longer names (in bytes, without KEY_) get no suggestion: none is near a
    /// known name (the longest, KBDINPUTASSIST_PREVGROUP, has 24), and the work
    /// grows with the length.
    static let longestName = 40

    struct Candidate {
        var shown: String
        var folded: [Unicode.Scalar]
        /// Lowercased with its `_`: tells Alt_L from alt when both are near.
        var lowered: [Unicode.Scalar]
        var codes: [UInt16]
    }

    /// gesturemap's aliases, the kernel's names as the docs write them, the X
    /// names: on a tie for one key, the first is offered. A kernel name that
    /// means another key without KEY_ (Menu, Next) is left out: it is offered
    /// to a name written with KEY_, from `kernelCandidates`.
    static let candidates: [Candidate] = {
        var all: [Candidate] = []
        for (name, key) in keyAliases { all += candidate(name, name, [key]) }
        for name in KernelKeys.codes.keys.sorted() where KeyNames.others[foldedKeyName(name.dropFirst(4))] == nil {
            all += candidate(displayName(ofKernel: name), String(name.dropFirst(4)), [name])
        }
        for (name, keys) in xKeysymNames { all += candidate(name, name, keys) }
        return all
    }()

    /// The kernel's names, for a name written with KEY_, spelled as the kernel does.
    static let kernelCandidates: [Candidate] = KernelKeys.codes.keys.sorted().flatMap { candidate($0, String($0.dropFirst(4)), [$0]) }

    static func candidate(_ shown: String, _ spelled: String, _ keys: [String]) -> [Candidate] {
        guard let keys = KeyNames.resolved(keys) else { return [] }
        return [Candidate(
            shown: shown, folded: Array(foldedKeyName(spelled).unicodeScalars),
            lowered: Array(spelled.lowercased().unicodeScalars), codes: keys.map(\.code))]
    }

    static func nearest(to name: String) -> String? {
        var lower = name.utf8.map(asciiLowercased)
        let kernelName = lower.starts(with: "key_".utf8)
        if kernelName { lower.removeFirst(4) }
        guard lower.count <= longestName else { return nil }
        let folded = Array(foldedKeyName(utf8: lower).unicodeScalars)
        guard !folded.isEmpty else { return nil }

        var nearest: [Candidate] = []
        var fewest = Int.max
        for candidate in kernelName ? kernelCandidates : candidates {
            let shorter = min(folded.count, candidate.folded.count)
            let limit = min(shorter <= 3 ? 1 : 2, shorter - 1, fewest)
            guard limit >= 0, let edits = editDistance(folded, candidate.folded, atMost: limit) else { continue }
            if edits < fewest {
                fewest = edits
                nearest = []
            }
            if edits == fewest { nearest.append(candidate) }
        }
        guard !nearest.isEmpty else { return nil }

        // Among as-near names, the one nearest with its `_` and then the first.
        let lowered = Array(String(decoding: lower, as: UTF8.self).unicodeScalars)
        let ranked = nearest.map { ($0, editDistance(lowered, $0.lowered, atMost: Int.max) ?? Int.max) }
        guard let closest = ranked.map(\.1).min() else { return nil }
        let tied = ranked.filter { $0.1 == closest }.map(\.0)
        guard let first = tied.first, tied.allSatisfy({ $0.codes == first.codes }) else { return nil }
        return first.shown
    }
}

/// Optimal string alignment distance (insert, delete, substitute, swap two
/// neighbours), or nil when it is more than `limit`.
func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar], atMost limit: Int) -> Int? {
    guard abs(a.count - b.count) <= limit else { return nil }
    if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
    var before = [Int](repeating: 0, count: b.count + 1)
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
        current[0] = i
        var rowBest = i
        for j in 1...b.count {
            let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
            var cost = min(previous[j] + 1, current[j - 1] + 1, substitution)
            if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                cost = min(cost, before[j - 2] + 1)
            }
            current[j] = cost
            rowBest = min(rowBest, cost)
        }
        // Every later cell is at least this row's best.
        if rowBest > limit { return nil }
        (before, previous, current) = (previous, current, before)
    }
    let distance = previous[b.count]
    return distance <= limit ? distance : nil
}
