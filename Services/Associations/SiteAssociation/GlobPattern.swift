/// A `paths` or `components` pattern compiled for matching without backtracking: `*` any run of
/// characters, `?` exactly one, `$(name)` one of a set of strings or a character class (spec
/// associations.md c.4, c.5). Matching walks the text once per pattern element, keeping the set of
/// text positions the pattern so far can end at, so it costs O(text × pattern) whatever the
/// pattern's shape: `*a*a*a*b` against `aaaa…` takes as long as `/a/b` does.
struct GlobPattern {
    enum Element {
        case scalar(Unicode.Scalar)
        case any
        case star
        case characterClass(CharacterClass)
        case words(WordSet)
    }

    let elements: [Element]
    let caseSensitive: Bool

    /// Compiles `pattern`; `variable` gives what `$(name)` stands for (nil: it matches nothing).
    init(_ pattern: String, caseSensitive: Bool, variable: (String) -> Element?) {
        self.caseSensitive = caseSensitive
        let scalars = Array(pattern.unicodeScalars)
        // Where the next ')' is at or after each index, found in one backward pass.
        var nextClose = [Int](repeating: -1, count: scalars.count + 1)
        for index in stride(from: scalars.count - 1, through: 0, by: -1) {
            nextClose[index] = scalars[index] == ")" ? index : nextClose[index + 1]
        }
        var elements: [Element] = []
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == "$", index + 1 < scalars.count, scalars[index + 1] == "(", nextClose[index + 2] >= 0 {
                let close = nextClose[index + 2]
                var name = String.UnicodeScalarView()
                name.append(contentsOf: scalars[(index + 2)..<close])
                elements.append(variable(String(name)) ?? .words(WordSet([])))
                index = close + 1
                continue
            }
            switch scalar {
            case "*": if case .star? = elements.last {} else { elements.append(.star) }
            case "?": elements.append(.any)
            default: elements.append(.scalar(caseSensitive ? scalar : Self.fold(scalar)))
            }
            index += 1
        }
        self.elements = elements
    }

    /// Whether the whole of `text` matches.
    func matches(_ text: String) -> Bool {
        var work = 0
        return matches(text, work: &work)
    }

    /// Whether the whole of `text` matches; `work` counts the text positions visited, at most
    /// (text + 1) × elements plus the length of the variables' words tried (tests check this).
    func matches(_ text: String, work: inout Int) -> Bool {
        let input = text.unicodeScalars.map { caseSensitive ? $0 : Self.fold($0) }
        let count = input.count
        var reach = [Bool](repeating: false, count: count + 1)
        var next = reach
        reach[0] = true
        for element in elements {
            work += count + 1
            for position in 0...count { next[position] = false }
            var any = false
            switch element {
            case .scalar(let expected):
                for position in 0..<count where reach[position] && input[position] == expected {
                    next[position + 1] = true
                    any = true
                }
            case .any:
                for position in 0..<count where reach[position] {
                    next[position + 1] = true
                    any = true
                }
            case .characterClass(let characterClass):
                for position in 0..<count where reach[position] && characterClass.contains(input[position], caseSensitive: caseSensitive) {
                    next[position + 1] = true
                    any = true
                }
            case .star:
                var seen = false
                for position in 0...count {
                    seen = seen || reach[position]
                    next[position] = seen
                    any = any || seen
                }
            case .words(let words):
                for position in 0...count where reach[position] {
                    work += words.forEachMatch(in: input, from: position) { end in
                        next[end] = true
                        any = true
                    }
                }
            }
            guard any else { return false }
            swap(&reach, &next)
        }
        return reach[count]
    }

    /// A scalar's simple lower-case form, for case-insensitive matching.
    static func fold(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
        let lower = scalar.properties.lowercaseMapping.unicodeScalars
        return lower.count == 1 ? lower.first ?? scalar : scalar
    }
}

/// The predefined variables that stand for one character (spec c.5).
enum CharacterClass {
    case alpha, upper, lower, alnum, digit, xdigit

    func contains(_ scalar: Unicode.Scalar, caseSensitive: Bool) -> Bool {
        let category = scalar.properties.generalCategory
        switch self {
        case .alpha: return Self.isLetter(category)
        case .upper where caseSensitive: return category == .uppercaseLetter
        case .lower where caseSensitive: return category == .lowercaseLetter
        // Ignoring case, as ICU does, a cased letter of either case is in both classes.
        case .upper, .lower: return [.uppercaseLetter, .lowercaseLetter, .titlecaseLetter].contains(category)
        case .alnum: return Self.isLetter(category) || [.decimalNumber, .letterNumber, .otherNumber].contains(category)
        case .digit: return ("0"..."9").contains(scalar)
        case .xdigit: return ("0"..."9").contains(scalar) || ("a"..."f").contains(scalar) || ("A"..."F").contains(scalar)
        }
    }

    private static func isLetter(_ category: Unicode.GeneralCategory) -> Bool {
        [.uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter].contains(category)
    }
}

/// A set of strings as a trie, so that finding which of them start at a text position costs at
/// most the length of the longest, not the number of strings.
struct WordSet {
    private var children: [[Unicode.Scalar: Int]] = [[:]]
    private var terminal: [Bool] = [false]

    init(_ words: [String], caseSensitive: Bool = true) {
        for word in words {
            var node = 0
            for raw in word.unicodeScalars {
                let scalar = caseSensitive ? raw : GlobPattern.fold(raw)
                if let child = children[node][scalar] {
                    node = child
                } else {
                    children.append([:])
                    terminal.append(false)
                    children[node][scalar] = children.count - 1
                    node = children.count - 1
                }
            }
            terminal[node] = true
        }
    }

    /// Calls `found` with the end of every word of the set that starts at `start` in `input`;
    /// returns how many scalars it looked at.
    @discardableResult
    func forEachMatch(in input: [Unicode.Scalar], from start: Int, _ found: (Int) -> Void) -> Int {
        var node = 0
        var position = start
        while true {
            if terminal[node] { found(position) }
            guard position < input.count, let child = children[node][input[position]] else { return position - start }
            node = child
            position += 1
        }
    }
}
