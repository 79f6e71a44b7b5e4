import SandboxWire

extension Router {
    /// `GET /_sandbox/snapshots`, `POST /_sandbox/snapshots` `{name}`,
    /// `POST /_sandbox/snapshots/{name}/restore` and `DELETE /_sandbox/snapshots/{name}`: a
    /// service's part of the sandbox's named snapshots, kept on `shelf`.
    ///
    /// `save` writes the service's part of snapshot `name` (through ``SnapshotShelf/save(_:_:)``,
    /// so a part saved before is replaced whole); `restore` brings it back, with `gate` closed:
    /// no other request runs meanwhile.
    public mutating func addSnapshotRoutes(
        shelf: SnapshotShelf, gate: RequestGate, save: @escaping @Sendable (_ name: String) throws -> SnapshotShelf.Entry,
        restore: @escaping @Sendable (_ name: String) throws -> Void
    ) {
        @Sendable func missing(_ name: String) -> HTTPError {
            HTTPError(
                status: 404, code: .snapshotNotFound,
                message: "No snapshot named '\(name)' holds this service's state (GET /_sandbox/snapshots lists them).")
        }
        get("/_sandbox/snapshots") { _ in .json(["snapshots": shelf.list()]) }
        post("/_sandbox/snapshots") { request in
            struct Body: Decodable { let name: String }
            let name = try request.decode(Body.self).name
            guard SnapshotShelf.isValid(name) else {
                throw HTTPError.badRequest(
                    "name must be 1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit.", code: .invalidRequest, field: "name")
            }
            return .json(try save(name), status: 201)
        }
        post("/_sandbox/snapshots/{name}/restore") { request in
            let name = request.parameter("name")
            guard let entry = shelf.entry(name) else { throw missing(name) }
            try gate.alone { try restore(entry.name) }
            return .json(entry)
        }
        delete("/_sandbox/snapshots/{name}") { request in
            let name = request.parameter("name")
            guard shelf.remove(name) else { throw missing(name) }
            return Response(status: 204)
        }
    }
}
