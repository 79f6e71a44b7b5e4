import CPostgres
import Foundation

/// One libpq connection under a ``Connection``: statements prepared once per connection (by
/// their SQL and the types of their values), values sent as text (bytes as binary `bytea`), and
/// rows read back by their columns' types into ``DatabaseValue``s.
final class PostgresSession {
    let conn: OpaquePointer
    /// Prepared statements by translated SQL and parameter types.
    private var prepared: [String: String] = [:]
    /// Translations of the repositories' SQL, by its text.
    private var translated: [String: String] = [:]
    private(set) var changes = 0
    /// A `BEGIN` not sent yet: it goes to the server with the transaction's first statement, in one
    /// round trip (libpq's pipeline mode), or not at all when the transaction runs none.
    private var pendingBegin: String?
    /// Set when a pipeline left the connection in a state it cannot be used in again.
    private var broken = false

    /// Opens a connection from a libpq connection string or `postgres://` URL.
    init(conninfo: String) throws {
        guard let conn = PQconnectdb(conninfo) else {
            throw DatabaseError.postgres(state: nil, message: "libpq could not allocate a connection", sql: nil)
        }
        guard PQstatus(conn) == CONNECTION_OK else {
            let message = String(cString: PQerrorMessage(conn)).trimmingCharacters(in: .whitespacesAndNewlines)
            PQfinish(conn)
            throw DatabaseError.postgres(state: "08006", message: "cannot connect to PostgreSQL: \(message)", sql: nil)
        }
        self.conn = conn
        // Quiet NOTICEs (CREATE … IF NOT EXISTS); errors still come back as results.
        _ = try? execute("SET client_min_messages = warning")
    }

    deinit { PQfinish(conn) }

    var isInTransaction: Bool {
        if pendingBegin != nil { return true }
        let status = PQtransactionStatus(conn)
        return status == PQTRANS_INTRANS || status == PQTRANS_INERROR || status == PQTRANS_ACTIVE
    }

    /// Whether the connection is still usable (a server restart or a dropped socket ends it).
    var isHealthy: Bool { !broken && PQstatus(conn) == CONNECTION_OK }

    /// Begins a transaction with `sql` (`BEGIN ISOLATION LEVEL …`), sent with its first statement.
    func begin(_ sql: String) throws {
        guard !isInTransaction else {
            throw DatabaseError.misuse.with(message: "a transaction is already open on this connection", sql: sql)
        }
        pendingBegin = sql
    }

    /// Ends the transaction with `sql` (`COMMIT` or `ROLLBACK`): nothing to send when it never
    /// reached the server.
    func end(_ sql: String) throws {
        if pendingBegin != nil {
            pendingBegin = nil
            return
        }
        _ = try query(sql, [])
    }

    /// Runs a script of statements with no parameters.
    func execute(_ sql: String) throws {
        try sendPendingBegin()
        let result = PQexec(conn, sql)
        defer { PQclear(result) }
        try check(result, sql: sql)
    }

    /// Runs one statement with values, through the prepared-statement cache.
    func query(_ sql: String, _ values: [DatabaseValue]) throws -> [Row] {
        let text: String
        if let known = translated[sql] {
            text = known
        } else {
            text = PostgresDialect.translate(sql)
            if translated.count >= 512 { translated.removeAll() }
            translated[sql] = text
        }
        var types: [Oid] = []
        types.reserveCapacity(values.count)
        var signature = ""
        for value in values {
            let type: Oid =
                switch value {
                case .integer: 20  // int8
                case .real: 701  // float8
                case .blob: 17  // bytea
                case .text, .null: 0  // the server infers it from where the value goes
                }
            types.append(type)
            signature += String(type) + ","
        }
        let key = text + "\u{0}" + signature
        let name: String
        if let known = prepared[key] {
            name = known
        } else {
            if prepared.count >= 1024 {
                // A caller that splices values into SQL must not grow the server's memory forever.
                try execute("DEALLOCATE ALL")
                prepared.removeAll()
            }
            name = "s\(prepared.count + 1)"
            let result = PQprepare(conn, name, text, Int32(values.count), types)
            defer { PQclear(result) }
            try check(result, sql: sql)
            prepared[key] = name
        }
        let begin = pendingBegin
        pendingBegin = nil
        let result = try withParameters(values) { pointers, lengths, formats in
            if let begin {
                return try pipeline(begin, then: name, Int32(values.count), pointers, lengths, formats, sql: sql)
            }
            return PQexecPrepared(conn, name, Int32(values.count), pointers, lengths, formats, 0)
        }
        defer { PQclear(result) }
        try check(result, sql: sql)
        changes = Int(String(cString: PQcmdTuples(result))) ?? 0
        return rows(of: result)
    }

    /// Sends a `BEGIN` still pending on its own (before a script, which cannot join a pipeline).
    private func sendPendingBegin() throws {
        guard let begin = pendingBegin else { return }
        pendingBegin = nil
        let result = PQexec(conn, begin)
        defer { PQclear(result) }
        try check(result, sql: begin)
    }

    /// Sends `begin` and the prepared statement `name` together and returns the statement's result
    /// (the caller clears it): one round trip for both, in libpq's pipeline mode.
    private func pipeline(
        _ begin: String, then name: String, _ count: Int32, _ values: UnsafePointer<UnsafePointer<CChar>?>?,
        _ lengths: UnsafePointer<Int32>?, _ formats: UnsafePointer<Int32>?, sql: String
    ) throws -> OpaquePointer? {
        guard PQenterPipelineMode(conn) == 1 else {
            let began = PQexec(conn, begin)
            defer { PQclear(began) }
            try check(began, sql: begin)
            return PQexecPrepared(conn, name, count, values, lengths, formats, 0)
        }
        guard PQsendQueryParams(conn, begin, 0, nil, nil, nil, nil, 0) == 1,
            PQsendQueryPrepared(conn, name, count, values, lengths, formats, 0) == 1, PQpipelineSync(conn) == 1
        else { throw failedPipeline(sql) }
        // Each statement's result, then a NULL; then the sync's own result.
        var results: [OpaquePointer] = []
        var nulls = 0
        while true {
            guard let result = PQgetResult(conn) else {
                nulls += 1
                // Two NULLs in a row: nothing more will come (the connection failed).
                if nulls == 2 { break }
                continue
            }
            nulls = 0
            if PQresultStatus(result) == PGRES_PIPELINE_SYNC {
                PQclear(result)
                break
            }
            results.append(result)
        }
        guard results.count == 2, PQexitPipelineMode(conn) == 1 else {
            results.forEach { PQclear($0) }
            throw failedPipeline(sql)
        }
        defer { PQclear(results[0]) }
        do {
            try check(results[0], sql: begin)
        } catch {
            PQclear(results[1])
            throw error
        }
        return results[1]
    }

    /// The error of a pipeline that did not end as sent; the connection is not used again.
    private func failedPipeline(_ sql: String) -> DatabaseError {
        broken = true
        let message = String(cString: PQerrorMessage(conn)).trimmingCharacters(in: .whitespacesAndNewlines)
        return DatabaseError.postgres(state: "08006", message: "the connection to PostgreSQL failed: \(message)", sql: sql)
    }

    /// Calls `body` with the values as libpq's parameter arrays (text, or binary for bytes).
    private func withParameters<T>(
        _ values: [DatabaseValue],
        _ body: (UnsafePointer<UnsafePointer<CChar>?>?, UnsafePointer<Int32>?, UnsafePointer<Int32>?) throws -> T
    ) throws -> T {
        var buffers: [UnsafeMutablePointer<CChar>?] = []
        var lengths: [Int32] = []
        var formats: [Int32] = []
        defer { for buffer in buffers { buffer?.deallocate() } }
        for value in values {
            let bytes: [UInt8]?
            var format: Int32 = 0
            switch value {
            case .null: bytes = nil
            case .integer(let v): bytes = Array(String(v).utf8)
            case .real(let v): bytes = Array((v.isFinite ? String(v) : (v.isNaN ? "NaN" : (v > 0 ? "Infinity" : "-Infinity"))).utf8)
            case .text(let v):
                guard !v.utf8.contains(0) else {
                    throw DatabaseError.misuse.with(message: "PostgreSQL text cannot hold a NUL character")
                }
                bytes = Array(v.utf8)
            case .blob(let v): bytes = v; format = 1
            }
            if let bytes {
                let buffer = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count + 1)
                bytes.withUnsafeBufferPointer { source in
                    source.withMemoryRebound(to: CChar.self) { buffer.update(from: $0.baseAddress!, count: bytes.count) }
                }
                buffer[bytes.count] = 0
                buffers.append(buffer)
                lengths.append(Int32(bytes.count))
            } else {
                buffers.append(nil)
                lengths.append(0)
            }
            formats.append(format)
        }
        let pointers = buffers.map { UnsafePointer($0) }
        return try pointers.withUnsafeBufferPointer { p in
            try lengths.withUnsafeBufferPointer { l in
                try formats.withUnsafeBufferPointer { f in try body(p.baseAddress, l.baseAddress, f.baseAddress) }
            }
        }
    }

    private func rows(of result: OpaquePointer?) -> [Row] {
        let count = Int(PQntuples(result))
        guard count > 0 else { return [] }
        let fields = Int(PQnfields(result))
        let columns = (0..<fields).map { String(cString: PQfname(result, Int32($0))) }
        let types = (0..<fields).map { PQftype(result, Int32($0)) }
        var rows: [Row] = []
        rows.reserveCapacity(count)
        for r in 0..<Int32(count) {
            var values: [DatabaseValue] = []
            values.reserveCapacity(fields)
            for f in 0..<Int32(fields) {
                if PQgetisnull(result, r, f) == 1 {
                    values.append(.null)
                    continue
                }
                let raw = PQgetvalue(result, r, f)!
                values.append(Self.value(raw, length: Int(PQgetlength(result, r, f)), type: types[Int(f)]))
            }
            rows.append(Row(columns: columns, values: values))
        }
        return rows
    }

    /// A value in PostgreSQL's text format, as the type of its column says.
    private static func value(_ raw: UnsafeMutablePointer<CChar>, length: Int, type: Oid) -> DatabaseValue {
        switch type {
        case 16:  // bool
            return .integer(raw.pointee == 0x74 ? 1 : 0)
        case 20, 21, 23, 26:  // int8, int2, int4, oid
            return Int64(String(cString: raw)).map(DatabaseValue.integer) ?? .text(String(cString: raw))
        case 700, 701:  // float4, float8
            return Double(String(cString: raw)).map(DatabaseValue.real) ?? .text(String(cString: raw))
        case 1700:  // numeric: SUM of integers is numeric; whole values read as integers
            let text = String(cString: raw)
            if let whole = Int64(text) { return .integer(whole) }
            return Double(text).map(DatabaseValue.real) ?? .text(text)
        case 17:  // bytea, as `\x…`
            var size = 0
            guard let bytes = PQunescapeBytea(UnsafeRawPointer(raw).assumingMemoryBound(to: UInt8.self), &size) else { return .blob([]) }
            defer { PQfreemem(bytes) }
            return .blob(Array(UnsafeBufferPointer(start: bytes, count: size)))
        default:
            return .text(String(decoding: UnsafeRawBufferPointer(start: raw, count: length), as: UTF8.self))
        }
    }

    private func check(_ result: OpaquePointer?, sql: String) throws {
        let status = PQresultStatus(result)
        guard status != PGRES_COMMAND_OK, status != PGRES_TUPLES_OK, status != PGRES_EMPTY_QUERY else { return }
        let state = PQresultErrorField(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) }
        let message = result.flatMap { PQresultErrorMessage($0) }.map { String(cString: $0) } ?? String(cString: PQerrorMessage(conn))
        throw DatabaseError.postgres(state: state, message: message.trimmingCharacters(in: .whitespacesAndNewlines), sql: sql)
    }
}
