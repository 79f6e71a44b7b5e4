import Launcher

CommandMain.run(HostCommand.description, arguments: CommandLine.arguments.dropFirst(), HostCommand.run)
