#!/usr/bin/env bash
# Writes store-v1.sqlite: a store as schema version 1 (migration 0001-initial) left it, with a
# dismissed message, a read one, a pinned one and a queued outbox change. Kept in the repo so the
# migration test upgrades a file made by the old schema, not one made by today's code.
set -euo pipefail
cd "$(dirname "$0")"
rm -f store-v1.sqlite
sqlite3 store-v1.sqlite <<'SQL'
PRAGMA journal_mode=DELETE;
CREATE TABLE schema_migrations (id TEXT PRIMARY KEY, applied_at INTEGER NOT NULL) WITHOUT ROWID;
CREATE TABLE messages (
  id TEXT PRIMARY KEY, payload TEXT NOT NULL, ingested_at INTEGER NOT NULL, source TEXT NOT NULL,
  order_code TEXT, hash TEXT, pinned INTEGER NOT NULL, sort_time INTEGER NOT NULL, sent_at INTEGER,
  expires_at INTEGER, server_status INTEGER NOT NULL, status INTEGER NOT NULL, read_at INTEGER,
  opened_at INTEGER, dismissed_at INTEGER
) WITHOUT ROWID;
CREATE INDEX feed_order ON messages(pinned DESC, sort_time DESC, id) WHERE status < 4;
CREATE INDEX feed_unread ON messages(pinned DESC, sort_time DESC, id) WHERE status < 2;
CREATE TABLE outbox (
  seq INTEGER PRIMARY KEY AUTOINCREMENT, message_id TEXT NOT NULL, status INTEGER NOT NULL,
  order_code TEXT, hash TEXT, queued_at INTEGER NOT NULL, UNIQUE (message_id, status)
);
CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
INSERT INTO schema_migrations VALUES ('0001-initial', 1764400000);
INSERT INTO settings VALUES ('store.id', '"0123456789abcdef"');
INSERT INTO settings VALUES ('attributes', '{"forceCellKind":null,"platform":"ios","walletPasses":null,"unreadFirst":false}');
INSERT INTO messages VALUES ('m-pinned', '{"inbox_id":"m-pinned","order":"101","rt":"4102444800","send_date":"1764400000","title":"Pinned","text":"Stays on top","action_type":0,"action_params":"{\"u\":{\"pinned\":true}}","status":1,"hash":"H1"}', 1764400000, 'backend', '101', 'H1', 1, 1764400000, 1764400000, 4102444800, 1, 1, NULL, NULL, NULL);
INSERT INTO messages VALUES ('m-read', '{"inbox_id":"m-read","order":"102","rt":"4102444800","send_date":"1764400100","title":"Read","text":"Already read","action_type":0,"action_params":"{}","status":1,"hash":"H2"}', 1764400100, 'backend', '102', 'H2', 0, 1764400100, 1764400100, 4102444800, 1, 2, 1764400200, NULL, NULL);
INSERT INTO messages VALUES ('m-gone', '{"inbox_id":"m-gone","order":"103","rt":"4102444800","send_date":"1764400200","title":"Gone","text":"Dismissed","action_type":0,"action_params":"{}","status":1,"hash":"H3"}', 1764400200, 'backend', '103', 'H3', 0, 1764400200, 1764400200, 4102444800, 1, 4, NULL, NULL, 1764400300);
INSERT INTO outbox (message_id, status, order_code, hash, queued_at) VALUES ('m-read', 2, '102', 'H2', 1764400200);
INSERT INTO outbox (message_id, status, order_code, hash, queued_at) VALUES ('m-gone', 4, '103', 'H3', 1764400300);
PRAGMA user_version = 1;
SQL
echo "wrote $(pwd)/store-v1.sqlite"
