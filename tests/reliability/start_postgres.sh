#!/usr/bin/env bash
# Start a throw-away PostgreSQL server on 127.0.0.1 and a free port, create a database, and print
# its SQLAlchemy URL (postgresql+asyncpg://…) on stdout. Used by .ci/run and by developers:
#
#   export PARTIDA_TEST_PG_URL=$(tests/reliability/start_postgres.sh /tmp/partida-pg)
#   tests/reliability/start_postgres.sh /tmp/partida-pg stop
#
# PARTIDA_PG_DURABLE=1 starts a durable server instead (fsync, synchronous commits and full
# page writes on, PostgreSQL's defaults), as an operator runs it: the benches' PostgreSQL
# figures come from one (docs/performance.md). The tests keep the fast, undurable default.
#
# The server runs as the `postgres` user when we are root (PostgreSQL refuses to run as root),
# else as ourselves. Needs the Debian package `postgresql` (initdb, pg_ctl under
# /usr/lib/postgresql/<version>/bin).
set -euo pipefail
DIR="${1:-/tmp/partida-pg}"
ACTION="${2:-start}"

BIN=""
for candidate in /usr/lib/postgresql/*/bin; do
  [ -x "$candidate/initdb" ] && BIN="$candidate"
done
if [ -z "$BIN" ]; then
  BIN="$(dirname "$(command -v initdb || echo /nonexistent/initdb)")"
fi
[ -x "$BIN/initdb" ] || { echo "PostgreSQL is not installed (apt-get install postgresql)" >&2; exit 3; }

as_pg() {
  if [ "$(id -u)" = 0 ]; then
    runuser -u postgres -- "$@"
  else
    "$@"
  fi
}

if [ "$ACTION" = stop ]; then
  as_pg "$BIN/pg_ctl" -D "$DIR/data" -m fast stop >/dev/null 2>&1 || true
  exit 0
fi

if [ -f "$DIR/url" ] && as_pg "$BIN/pg_ctl" -D "$DIR/data" status >/dev/null 2>&1; then
  cat "$DIR/url"   # already running: reuse it
  exit 0
fi

rm -rf "$DIR"
mkdir -p "$DIR"
[ "$(id -u)" = 0 ] && chown postgres: "$DIR"
PORT="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
as_pg "$BIN/initdb" -D "$DIR/data" -U partida --auth=trust -E UTF8 --locale=C.UTF-8 >"$DIR/initdb.log" 2>&1 \
  || { cat "$DIR/initdb.log" >&2; exit 4; }
# Loopback only, socket in the temp dir; fsync off: a test server trades durability for speed
# (the crash tests kill the *bot*, not the database).
UNDURABLE="-c fsync=off -c synchronous_commit=off -c full_page_writes=off"
[ "${PARTIDA_PG_DURABLE:-0}" = 1 ] && UNDURABLE=""
as_pg "$BIN/pg_ctl" -D "$DIR/data" -l "$DIR/server.log" -w -t 60 \
  -o "-c listen_addresses=127.0.0.1 -p $PORT -k $DIR $UNDURABLE -c max_connections=200" \
  start >/dev/null || { cat "$DIR/server.log" >&2; exit 5; }
as_pg "$BIN/createdb" -h 127.0.0.1 -p "$PORT" -U partida partida_test
URL="postgresql+asyncpg://partida@127.0.0.1:$PORT/partida_test"
echo "$URL" >"$DIR/url"
echo "$URL"
