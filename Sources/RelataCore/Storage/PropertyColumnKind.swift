/// The kind of value a property column of an entity table holds (see ``TableCatalog``): one per
/// scalar kind of ``PropertyValue``. A property whose values change kind (a model that turned an
/// `Int` into a `String`) gets a column per kind; each row fills the one its value has.
package enum PropertyColumnKind: String, Sendable, CaseIterable {
    /// `Bool`: SQLite `BOOLEAN` (0 or 1), PostgreSQL `boolean`.
    case bool
    /// Integers that fit in `Int64`: SQLite `INTEGER`, PostgreSQL `bigint`.
    case integer
    /// Unsigned integers above `Int64.max`: decimal text in SQLite, PostgreSQL `numeric`.
    case unsigned
    /// `Double`, `Float`, `Date` (seconds since 2001-01-01): SQLite `REAL`, PostgreSQL
    /// `double precision`.
    case real
    /// `String`, `UUID`, `URL`: SQLite `TEXT`, PostgreSQL `text`.
    case text
    /// `Data`: SQLite `BLOB`, PostgreSQL `bytea`.
    case data
    /// A nested `Codable` value (a struct, an array, a dictionary) as JSON: SQLite `TEXT`
    /// holding JSON, PostgreSQL `jsonb`.
    case json
}
