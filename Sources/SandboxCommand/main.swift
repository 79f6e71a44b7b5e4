import Launcher

SandboxCommand.main(Array(CommandLine.arguments.dropFirst()))
