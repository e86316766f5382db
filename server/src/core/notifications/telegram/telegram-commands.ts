/** Who sent a command and what followed its name (`/stop Grid 1` → args `Grid 1`) */
export interface TelegramCommandContext {
  userId: string;
  chatId: number;
  args: string;
}

/** One command of the linked chat; the answer is the reply's text (plain, short) */
export interface TelegramCommand {
  /** Lower case, without the slash */
  name: string;
  /** How the help lists it when it takes arguments (`/stop <bot name or id>`) */
  usage?: string;
  summary: string;
  run(context: TelegramCommandContext): Promise<string>;
}

/**
 * The commands a linked chat may send. The Telegram channel sits on the core floor and reads updates; the commands
 * act as the user through services of the floors above (bots, the kill switch, the account's figures), so the
 * edge fills this registry at construction (`routes/telegram/`) and the channel looks commands up by name
 */
export class TelegramCommands {
  readonly #commands = new Map<string, TelegramCommand>();

  register(command: TelegramCommand): void {
    if (!/^[a-z][a-z0-9_]{0,31}$/.test(command.name))
      throw new Error(`A Telegram command is named in lower case letters, digits and _: ${command.name}`);
    if (this.#commands.has(command.name) || command.name === 'help' || command.name === 'start')
      throw new Error(`The Telegram command /${command.name} is registered already`);
    this.#commands.set(command.name, command);
  }

  get(name: string): TelegramCommand | undefined {
    return this.#commands.get(name);
  }

  /** In the order they were registered */
  list(): TelegramCommand[] {
    return [...this.#commands.values()];
  }
}
