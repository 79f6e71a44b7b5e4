import SandboxWire

extension Fault.Match {
    /// Whether a request is one this match takes: its method (any case), surface and path (or
    /// path prefix, ending in `*`), each when given.
    func admits(method: String, path: String, surface: String) -> Bool {
        if let wanted = self.method, wanted.uppercased() != method { return false }
        if let wanted = self.surface, wanted != surface { return false }
        if let wanted = self.path {
            if wanted.hasSuffix("*") {
                guard path.hasPrefix(wanted.dropLast()) else { return false }
            } else if wanted != path {
                return false
            }
        }
        return true
    }
}
