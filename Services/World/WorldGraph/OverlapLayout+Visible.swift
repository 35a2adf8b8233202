extension OverlapLayout {
    /// `text` with every character that could act instead of showing replaced by U+FFFD: control
    /// characters (an escape sequence would drive a terminal; XML forbids most of them, so an SVG
    /// holding one would not open) and the bidirectional overrides and isolates (which reorder what
    /// a reader sees). A world file names its apps and teams as it likes; the picture and the text
    /// show those names, never obey them.
    public static func visible(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isHidden) else { return text }
        var shown = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            shown.append(isHidden(scalar) ? "\u{FFFD}" : scalar)
        }
        return String(shown)
    }

    private static func isHidden(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: true
        case 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
        case 0xFFFE, 0xFFFF: true
        default: false
        }
    }
}
