import CNcurses
import Glibc
import HaulUI

/// The curses backend: the only code that calls ncurses. It copies damaged rows of a
/// ``Grid`` to the terminal and turns key presses into ``Key``s.
///
/// Not thread-safe on purpose: one thread creates it, uses it, and shuts it down.
public final class CursesTerminal {
    public struct Unavailable: Error, CustomStringConvertible {
        public let description: String
    }

    private let screen: OpaquePointer
    private let window: UnsafeMutablePointer<WINDOW>
    private let colors: Bool
    public let unicode: Bool
    private var isShutDown = false
    private var mouseOn = false

    /// Takes over the terminal. Fails (without touching it) when stdin or stdout is not one. The
    /// mouse is asked for unless `HAUL_NO_MOUSE` is set (Shift still selects text as usual).
    public init(environment: [String: String], mouse: Bool = true) throws {
        guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else {
            throw Unavailable(
                description:
                    "the full-screen UI needs a terminal on stdin and stdout; in scripts use 'haul add', 'haul run' "
                    + "and 'haul ls'"
            )
        }
        if setlocale(LC_ALL, "") == nil { setlocale(LC_ALL, "C.UTF-8") }
        unicode = String(cString: haul_codeset()) == "UTF-8"
        CrashRestore.install()
        guard let screen = newterm(nil, haul_stdout(), haul_stdin()) else {
            throw Unavailable(
                description: "cannot start the terminal UI (is TERM set? TERM=\(environment["TERM"] ?? "unset"))")
        }
        self.screen = screen
        set_term(screen)
        window = haul_stdscr()
        raw()
        noecho()
        nonl()
        keypad(window, true)
        set_escdelay(25)
        curs_set(0)
        mouseOn = mouse && (environment["HAUL_NO_MOUSE"] ?? "").isEmpty
        if mouseOn { haul_mouse_on() }
        colors = has_colors() && environment["NO_COLOR"].map { $0.isEmpty } ?? true
        if colors {
            start_color()
            use_default_colors()
            let table: [(Color, Int16)] = [
                (.red, Int16(COLOR_RED)), (.green, Int16(COLOR_GREEN)), (.yellow, Int16(COLOR_YELLOW)),
                (.blue, Int16(COLOR_BLUE)), (.magenta, Int16(COLOR_MAGENTA)), (.cyan, Int16(COLOR_CYAN)),
            ]
            for (color, curses) in table { init_pair(Int16(color.rawValue), curses, -1) }
        }
    }

    deinit { shutdown() }

    /// Gives the terminal back exactly as it was (idempotent).
    public func shutdown() {
        guard !isShutDown else { return }
        isShutDown = true
        if mouseOn { haul_mouse_off() }
        endwin()
        delscreen(screen)
    }

    public var size: (width: Int, height: Int) { (Int(haul_cols()), Int(haul_lines())) }

    /// Waits up to `milliseconds` for a key (0 polls); nil when none came.
    public func readKey(milliseconds: Int32) -> Key? {
        wtimeout(window, milliseconds)
        var ch: wint_t = 0
        let result = wget_wch(window, &ch)
        if result == ERR { return nil }
        if result == KEY_CODE_YES { return Self.decode(keyCode: Int32(ch)) }
        return Self.decode(character: UInt32(ch))
    }

    static func decode(keyCode: Int32) -> Key? {
        switch keyCode {
        case KEY_UP: return .up
        case KEY_DOWN: return .down
        case KEY_LEFT: return .left
        case KEY_RIGHT: return .right
        case KEY_PPAGE: return .pageUp
        case KEY_NPAGE: return .pageDown
        case KEY_HOME: return .home
        case KEY_END: return .end
        case KEY_BACKSPACE: return .backspace
        case KEY_DC: return .delete
        case KEY_BTAB: return .backTab
        case KEY_ENTER: return .enter
        case KEY_RESIZE: return .resize
        case KEY_MOUSE:
            var row: Int32 = 0
            var column: Int32 = 0
            let kinds: [Int32: MouseEvent.Kind] = [
                1: .press, 2: .release, 3: .wheelUp, 4: .wheelDown, 5: .rightPress, 6: .doubleClick,
            ]
            guard let kind = kinds[haul_mouse_read(&row, &column)] else { return nil }
            return .mouse(MouseEvent(kind, row: Int(row), column: Int(column)))
        default: return nil
        }
    }

    static func decode(character value: UInt32) -> Key? {
        switch value {
        case 10, 13: return .enter
        case 27: return .escape
        case 8, 127: return .backspace
        case 9: return .tab
        case 1...26: return .control(Character(Unicode.Scalar(value + 96)!))
        default:
            guard let scalar = Unicode.Scalar(value) else { return nil }
            return .character(Character(scalar))
        }
    }

    /// Copies the damaged rows of `grid` to the terminal.
    public func draw(_ grid: Grid, _ damage: Damage) {
        let rows: [Int]
        switch damage {
        case .none: return
        case .full: rows = Array(0..<grid.height)
        case .rows(let r): rows = r
        }
        for row in rows where row < grid.height {
            for span in grid.spans(row: row) {
                // Outside a UTF-8 locale only ASCII is written: ncurses could not convert the rest.
                let text = unicode ? span.text : ASCIIFallback.text(span.text)
                var wide = text.unicodeScalars.map { wchar_t(bitPattern: $0.value) }
                wide.append(0)
                haul_put(
                    window, Int32(row), Int32(span.column), wide, Int32(wide.count - 1), attributes(span.style),
                    colors ? Int16(span.style.color.rawValue) : 0)
            }
        }
        wnoutrefresh(window)
        doupdate()
    }

    private func attributes(_ style: Style) -> attr_t {
        var a = haul_attr_normal()
        if style.bold { a |= haul_attr_bold() }
        if style.reverse { a |= haul_attr_reverse() }
        if style.dim && colors { a |= haul_attr_dim() }
        // Without colours, colour alone carries no meaning: errors become bold.
        if !colors, style.color == .red { a |= haul_attr_bold() }
        return a
    }
}
