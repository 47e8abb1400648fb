// ncursesw with the wide-character API, and getters for the
// C globals and macros that Swift 6 cannot use directly: in Swift 6 mode every C global is a
// concurrency error, and function-like macros do not import.
#ifndef HAUL_CNCURSES_SHIM_H
#define HAUL_CNCURSES_SHIM_H

// SwiftPM drops -D flags from pkg-config, so these must be defined here.
#define NCURSES_WIDECHAR 1
#ifndef _XOPEN_SOURCE_EXTENDED
#define _XOPEN_SOURCE_EXTENDED 1
#endif

#include <locale.h>
#include <langinfo.h>
#include <stdio.h>
#include <wchar.h>
#include <ncursesw/curses.h>

static inline WINDOW *haul_stdscr(void) { return stdscr; }
static inline int haul_lines(void) { return LINES; }
static inline int haul_cols(void) { return COLS; }
static inline int haul_colors(void) { return COLORS; }
static inline FILE *haul_stdin(void) { return stdin; }
static inline FILE *haul_stdout(void) { return stdout; }

static inline attr_t haul_attr_normal(void) { return A_NORMAL; }
static inline attr_t haul_attr_bold(void) { return A_BOLD; }
static inline attr_t haul_attr_reverse(void) { return A_REVERSE; }
static inline attr_t haul_attr_dim(void) { return A_DIM; }
static inline attr_t haul_attr_underline(void) { return A_UNDERLINE; }

/// Draws `count` wide characters at (y, x) with the given attributes and colour pair.
static inline int haul_put(WINDOW *win, int y, int x, const wchar_t *text, int count, attr_t attrs, short pair) {
    wattr_set(win, attrs, pair, NULL);
    return mvwaddnwstr(win, y, x, text, count);
}

static inline const char *haul_codeset(void) { return nl_langinfo(CODESET); }

/// Asks the terminal for presses, releases and the wheel (SGR mode where terminfo has it), with
/// no click-detection delay: haul tells double clicks itself.
static inline int haul_mouse_sgr(void) {
    const char *kmous = tigetstr("kmous");
    return kmous != NULL && kmous != (char *)-1 && kmous[0] == '\033' && kmous[1] == '[' && kmous[2] == '<';
}

static inline void haul_mouse_on(void) {
    mousemask(
        BUTTON1_PRESSED | BUTTON1_RELEASED | BUTTON1_CLICKED | BUTTON1_DOUBLE_CLICKED | BUTTON4_PRESSED
            | BUTTON5_PRESSED | BUTTON3_PRESSED,
        NULL);
    mouseinterval(0);
    // Where terminfo reads SGR reports (kmous=\E[<), ask for them: ncurses does not always.
    if (haul_mouse_sgr()) {
        fputs("\033[?1006h", stdout);
        fflush(stdout);
    }
}

static inline void haul_mouse_off(void) {
    if (haul_mouse_sgr()) {
        fputs("\033[?1006l", stdout);
        fflush(stdout);
    }
}

/// The mouse event behind a KEY_MOUSE: 1 left press (or click: a press and release read
/// together), 2 left release, 3 wheel up, 4 wheel down, 5 right press, 6 double click, 0 anything
/// else, -1 none; with its cell.
static inline int haul_mouse_read(int *row, int *column) {
    MEVENT event;
    if (getmouse(&event) != OK) return -1;
    *row = event.y;
    *column = event.x;
    if (event.bstate & BUTTON1_DOUBLE_CLICKED) return 6;
    if (event.bstate & (BUTTON1_PRESSED | BUTTON1_CLICKED)) return 1;
    if (event.bstate & BUTTON1_RELEASED) return 2;
    if (event.bstate & BUTTON4_PRESSED) return 3;
    if (event.bstate & BUTTON5_PRESSED) return 4;
    if (event.bstate & BUTTON3_PRESSED) return 5;
    return 0;
}

#endif
