"""Does the layout of an entity table matter to SQLite? The same rows, columns and indexes in a
`WITHOUT ROWID` table clustered by its text id (Relata's layout) and in a rowid table with a
unique index on the id (GRDB's baseline): W1's 100,000 message rows inserted in writes of 1,000,
point reads by id, each chat's messages in order; then W3's Q4 shape (an index range, sorted by
another column, one page) on 100,000 users. Python's sqlite3, WAL, 16 MB of cache.

    python3 Benchmarks/table_format.py
"""
import os
import random
import sqlite3
import tempfile
import time

PATH = os.path.join(tempfile.gettempdir(), "relata-table-format.sqlite")


def fresh(kind, table, columns):
    """A new file holding `table` with `columns` in the layout `kind`."""
    for suffix in ["", "-wal", "-shm"]:
        try:
            os.remove(PATH + suffix)
        except FileNotFoundError:
            pass
    db = sqlite3.connect(PATH, isolation_level=None)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=NORMAL")
    db.execute("PRAGMA cache_size=-16384")
    key = "id TEXT PRIMARY KEY NOT NULL" if kind == "without rowid" else "rid INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE"
    suffix = " WITHOUT ROWID" if kind == "without rowid" else ""
    db.execute(f"CREATE TABLE {table} ({key}, {columns}){suffix}")
    return db


def messages(kind):
    db = fresh(kind, "e", "payload BLOB NOT NULL, updated_at REAL, r11 TEXT, r11_inverse TEXT, r12 TEXT, r12_inverse TEXT, c15 TEXT, c16 TEXT, r17 TEXT, r17_inverse TEXT")
    db.execute("CREATE INDEX e_updated ON e (updated_at)")
    for column in ["r11", "r12", "r17"]:
        db.execute(f"CREATE INDEX e_{column} ON e ({column}, {column}_inverse) WHERE {column} IS NOT NULL")
    start = time.time()
    for first in range(0, 100_000, 1_000):
        rows = []
        for j in range(first, first + 1_000):
            chat = j % 1_000
            reply = f"m{j - 1_000}" if j % 5 == 1 and j >= 1_000 else None
            rows.append((f"m{j}", b"\x00", time.time(), f"u{(chat * 7 + (j % 10) * 13) % 1_000}", None, f"c{chat}", f"a{j // 1_000:05d}", f"m{j}", f"message {j}", reply, None))
        db.execute("BEGIN IMMEDIATE")
        db.executemany("INSERT INTO e (id, payload, updated_at, r11, r11_inverse, r12, r12_inverse, c15, c16, r17, r17_inverse) VALUES (?,?,?,?,?,?,?,?,?,?,?)", rows)
        db.execute("COMMIT")
    inserted = time.time() - start
    ids = [f"m{random.randrange(100_000)}" for _ in range(20_000)]
    start = time.time()
    for id in ids:
        db.execute("SELECT * FROM e WHERE id = ?", (id,)).fetchone()
    point = (time.time() - start) / len(ids)
    start = time.time()
    for chat in range(1_000):
        db.execute("SELECT * FROM e WHERE r12 = ? ORDER BY r12_inverse", (f"c{chat}",)).fetchall()
    chats = time.time() - start
    print(f"{kind:14s} insert {inserted * 1e3:6.0f} ms   read by id {point * 1e6:5.1f} us   1,000 chats in order {chats * 1e3:5.0f} ms")
    db.close()


def users(kind):
    db = fresh(kind, "u", "payload BLOB, updated_at REAL, c1 TEXT, c2 TEXT, c3 INTEGER, c4 TEXT")
    db.execute("CREATE INDEX u_age ON u (c3)")
    generator = random.Random(1)
    db.execute("BEGIN")
    db.executemany(
        "INSERT INTO u (id, payload, updated_at, c1, c2, c3, c4) VALUES (?,?,?,?,?,?,?)",
        [(f"user{i}", b"\x00", 0.0, f"user{i}", f"Name {generator.randrange(100_000)}", generator.randrange(18, 80), f"user{i}@example.com") for i in range(100_000)],
    )
    db.execute("COMMIT")
    db.execute("ANALYZE")
    query = "SELECT * FROM u WHERE c3 BETWEEN 30 AND 39 ORDER BY c2, id LIMIT 50 OFFSET 100"
    db.execute(query).fetchall()
    start = time.time()
    for _ in range(100):
        db.execute(query).fetchall()
    print(f"{kind:14s} users aged 30...39 by name, third page of 50: {(time.time() - start) * 10:.2f} ms")
    db.close()


for _ in range(2):
    for kind in ["without rowid", "rowid"]:
        messages(kind)
for _ in range(2):
    for kind in ["without rowid", "rowid"]:
        users(kind)
os.remove(PATH)
