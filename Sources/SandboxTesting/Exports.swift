// A test that imports SandboxTesting writes seeds (`SandboxSeed`, `HostSeed`) and reads error
// codes (`ErrorCode`) without a second import.
@_exported import SandboxWire
