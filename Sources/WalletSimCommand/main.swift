import Launcher

CommandMain.run(WalletCommand.description, arguments: CommandLine.arguments.dropFirst(), WalletCommand.run)
