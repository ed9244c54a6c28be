/* probe.c: othbook's C library in use. Opens the default book (or --book PATH), prints what
 * it says of each move line given (the position, then its moves), and with --depth D the
 * engine's best move.
 *
 * Build and run from the repository root (docs/c.md):
 *   cargo build --release -p othbook-c
 *   gcc -std=c11 -Wall -Wextra -O2 -Icapi/include examples/c/probe.c -Ltarget/release \
 *       -lothbook -Wl,-rpath,"$PWD/target/release" -o target/probe
 *   target/probe --depth 8 f5d6 f5d6c3
 *
 * Output, one fact per key=value (values black minus white in discs; "none" when absent):
 *   f5d6: in_book=1 games=82871 black_wins=36827 draws=4677 white_wins=41367 ...
 *     move=c3 games=42991 ... value=-0.19 depth=25 kind=mid best=1
 *   search f5d6: best=c3 score=-1.23 depth=8 kind=midgame pv=c3 c4 ...
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "othbook.h"

static const char *kind_name(OthbookKind kind, int search) {
  switch (kind) {
  case OTHBOOK_KIND_MIDGAME: return search ? "midgame" : "mid";
  case OTHBOOK_KIND_EXACT: return "exact";
  case OTHBOOK_KIND_WLD: return "wld";
  default: return "none";
  }
}

static void print_number(const char *key, double x) {
  if (isnan(x)) printf(" %s=none", key);
  else printf(" %s=%.2f", key, x);
}

static void print_square(int square) {
  if (square < 0) printf("pass");
  else printf("%c%c", 'a' + square % 8, '1' + square / 8);
}

/* Prints the book's answer for one line; 0 on success. */
static int probe_line(const OthbookBook *book, const char *line) {
  OthbookPosition pos;
  OthbookProbe probe;
  OthbookMove moves[OTHBOOK_MAX_MOVES];
  size_t count = 0;
  if (othbook_position_from_moves(NULL, line, &pos) != OTHBOOK_OK ||
      othbook_book_probe(book, &pos, &probe) != OTHBOOK_OK ||
      othbook_book_moves(book, &pos, moves, OTHBOOK_MAX_MOVES, &count) != OTHBOOK_OK) {
    fprintf(stderr, "probe: %s\n", othbook_last_error());
    return 1;
  }
  printf("%s: in_book=%d games=%llu black_wins=%u draws=%u white_wins=%u unknown=%u", line,
         probe.in_book, (unsigned long long)probe.games, probe.black_wins, probe.draws,
         probe.white_wins, probe.unknown);
  print_number("average_diff", probe.average_diff);
  print_number("value", probe.value);
  printf(" depth=");
  if (probe.value_depth < 0) printf("none");
  else printf("%d", probe.value_depth);
  printf(" kind=%s\n", kind_name(probe.value_kind, 0));
  for (size_t i = 0; i < count; i++) {
    const OthbookMove *m = &moves[i];
    printf("  move=%s games=", m->name);
    if (m->games < 0) printf("none");
    else printf("%lld", (long long)m->games);
    printf(" black_wins=%u draws=%u white_wins=%u", m->black_wins, m->draws, m->white_wins);
    print_number("value", m->value);
    printf(" depth=");
    if (m->value_depth < 0) printf("none");
    else printf("%d", m->value_depth);
    printf(" kind=%s best=%d\n", kind_name(m->value_kind, 0), m->best);
  }
  return 0;
}

/* Prints the engine's best move for one line; 0 on success. */
static int search_line(OthbookEngine *engine, const char *line, unsigned depth) {
  OthbookPosition pos;
  OthbookSearchResult r;
  if (othbook_position_from_moves(NULL, line, &pos) != OTHBOOK_OK ||
      othbook_engine_search(engine, &pos, depth, 0.0, 1, &r) != OTHBOOK_OK) {
    fprintf(stderr, "probe: %s\n", othbook_last_error());
    return 1;
  }
  printf("search %s: best=%s score=%.2f depth=%u kind=%s pv=", line, r.best_name, r.score,
         r.depth, kind_name(r.kind, 1));
  for (uint32_t i = 0; i < r.pv_length; i++) {
    if (i > 0) printf(" ");
    print_square(r.pv[i]);
  }
  printf("\n");
  return 0;
}

int main(int argc, char **argv) {
  const char *book_path = NULL;
  unsigned depth = 0;
  int first = 1;
  while (first < argc && strncmp(argv[first], "--", 2) == 0) {
    if (strcmp(argv[first], "--book") == 0 && first + 1 < argc) {
      book_path = argv[first + 1];
    } else if (strcmp(argv[first], "--depth") == 0 && first + 1 < argc) {
      depth = (unsigned)atoi(argv[first + 1]);
    } else {
      fprintf(stderr, "usage: probe [--book PATH] [--depth D] LINE...\n");
      return 2;
    }
    first += 2;
  }
  OthbookStatus status;
  OthbookBook *book = othbook_book_open(book_path, &status);
  if (book == NULL) {
    fprintf(stderr, "probe: %s (status %d)\n", othbook_last_error(), (int)status);
    return 1;
  }
  OthbookEngine *engine = NULL;
  if (depth > 0 && (engine = othbook_engine_new(16, &status)) == NULL) {
    fprintf(stderr, "probe: %s\n", othbook_last_error());
    othbook_book_close(book);
    return 1;
  }
  int failed = 0;
  for (int i = first; i < argc; i++) {
    failed |= probe_line(book, argv[i]);
    if (engine != NULL) failed |= search_line(engine, argv[i], depth);
  }
  othbook_engine_free(engine);
  othbook_book_close(book);
  return failed;
}
