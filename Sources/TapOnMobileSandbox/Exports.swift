// The SDK's configuration speaks the simulated reader's language (Device, ReaderClock,
// ReaderScript, CardScript, LocationScript, TestCard …), so importing the SDK brings it along.
@_exported import CardPayload
@_exported import SimulatedReader
// The seed's models (TransactionDetail, TerminalInfo, TransactionStatus …) are the wire's, one
// definition shared with the hosts: `import TapOnMobileSandbox` alone gives them.
@_exported import SandboxWire
