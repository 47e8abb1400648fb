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

#endif
