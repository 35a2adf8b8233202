/// "Did you mean …?": the nearest of a few known words to one a person typed, for every message
/// that names a mistyped subcommand, option or key.
public enum Spelling {
    /// The word of `candidates` nearest to `word`, when it is near enough to be the one meant: at
    /// most two edits, or a third of the word's length for a long word. Nil when `word` is itself
    /// a candidate. `maxDistance` overrides the bound, for words (such as entitlement keys) whose
    /// long shared prefixes make a third too generous.
    public static func nearest(to word: String, among candidates: some Sequence<String>, maxDistance: Int? = nil) -> String? {
        var best: (word: String, distance: Int)?
        for candidate in candidates {
            if candidate == word { return nil }
            let distance = distance(candidate, word)
            if distance < (best?.distance ?? .max) { best = (candidate, distance) }
        }
        guard let best, best.distance <= maxDistance ?? max(2, word.count / 3) else { return nil }
        return best.word
    }

    /// The Levenshtein distance between two short words (time in the product of their lengths, so
    /// callers give words, not documents).
    public static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}
