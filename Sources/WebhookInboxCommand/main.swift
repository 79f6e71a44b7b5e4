import Launcher

CommandMain.run(InboxCommand.description, arguments: CommandLine.arguments.dropFirst(), InboxCommand.run)
