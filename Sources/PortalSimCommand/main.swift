import Launcher

CommandMain.run(PortalCommand.description, arguments: CommandLine.arguments.dropFirst(), PortalCommand.run)
