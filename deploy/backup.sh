#!/bin/sh
# Back the papershelf database up with pg_dump (custom format, compressed), keeping 14 days.
# cron: 17 3 * * * papershelf /opt/papershelf/deploy/backup.sh
# Restore into an empty database:
#   createdb papershelf_restored && pg_restore --no-owner -d papershelf_restored FILE
set -eu
DATABASE_URL="${PAPERSHELF_DATABASE_URL:-postgresql://papershelf@127.0.0.1:5432/papershelf}"
DIR="${PAPERSHELF_BACKUP_DIR:-/var/backups/papershelf}"
mkdir -p "$DIR"
umask 077
FILE="$DIR/papershelf-$(date -u +%Y%m%dT%H%M%SZ).dump"
pg_dump --format=custom --no-owner --file="$FILE.part" "$DATABASE_URL"
mv "$FILE.part" "$FILE"
find "$DIR" -name 'papershelf-*.dump' -mtime +14 -delete
echo "$FILE"
