/// Makes text from outside (server names, headers, URLs) safe to print on a terminal.
public enum TerminalText {
    /// Removes escape sequences (CSI, OSC, DCS and two-byte ESC forms) and replaces every other
    /// control or bidi-override character with `replacement`.
    public static func sanitize(_ text: String, replacement: String = "?") -> String {
        // Printable ASCII: nothing to do. (Over the contiguous UTF-8: by `text.utf8` a byte costs ~10×.)
        var bytes = text
        if bytes.withUTF8({ $0.allSatisfy { $0 >= 0x20 && $0 < 0x7F } }) { return text }
        var output = String.UnicodeScalarView()
        var scalars = text.unicodeScalars[...]
        while let scalar = scalars.popFirst() {
            if scalar == "\u{1B}" || scalar == "\u{9B}" || scalar == "\u{9D}" || scalar == "\u{90}" {
                skipEscapeSequence(introducer: scalar, in: &scalars)
                continue
            }
            if isUnsafe(scalar) {
                output.append(contentsOf: replacement.unicodeScalars)
            } else {
                output.append(scalar)
            }
        }
        return String(output)
    }

    /// Control characters (C0, DEL, C1) and the invisible bidi controls that can disguise names.
    public static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: return true
        case 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069, 0xFEFF: return true
        default: return false
        }
    }

    private static func skipEscapeSequence(introducer: Unicode.Scalar, in scalars: inout Substring.UnicodeScalarView) {
        var kind = introducer
        if introducer == "\u{1B}" {
            guard let next = scalars.popFirst() else { return }
            switch next {
            case "[": kind = "\u{9B}"
            case "]", "P", "X", "^", "_": kind = "\u{9D}"
            default: return // two-byte form such as ESC c: both bytes dropped
            }
        }
        if kind == "\u{9B}" {
            // CSI: parameters and intermediates up to a final byte in 0x40...0x7E.
            while let s = scalars.popFirst() {
                if (0x40...0x7E).contains(s.value) { return }
                if !(0x20...0x3F).contains(s.value) { return }
            }
        } else {
            // OSC/DCS/…: a string ended by BEL or ST (ESC \ or 0x9C).
            while let s = scalars.popFirst() {
                if s == "\u{07}" || s == "\u{9C}" { return }
                if s == "\u{1B}" {
                    if scalars.first == "\\" { scalars.removeFirst() }
                    return
                }
            }
        }
    }
}
