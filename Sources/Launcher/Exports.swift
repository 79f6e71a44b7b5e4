@_exported import CommandLineSupport
