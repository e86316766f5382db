import {
  type ConnectionTestReply,
  type SocketToolInfo,
  type SocketToolName,
  SocketToolNameSchema,
  type TradingEnvironment,
} from '@kestrel/contracts';
import { z } from 'zod';
import { HttpError } from '../../lib/http-error';
import type { CredentialsService } from '../credentials/credentials-service';
import type { TradingAccount } from '../environment/trading-account';

/** A tool's arguments were wrong: answered as JSON-RPC -32602 with this message */
export class InvalidToolArgumentsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidToolArgumentsError';
  }
}

export interface ToolCaller {
  userId: string;
}

/**
 * One tool of the live socket, as the domain that answers it registers it (`app.socketTools.register`): what
 * `tools/list` shows, the arguments' schema (a wrong argument is a -32602 naming it) and the call, always as the
 * socket's user. The names are the contract's (`SocketToolNameSchema`)
 */
export interface SocketTool<Args> {
  info: SocketToolInfo;
  args: z.ZodType<Args>;
  call(caller: ToolCaller, args: Args): Promise<unknown>;
}

type AnyTool = { info: SocketToolInfo; run(caller: ToolCaller, raw: unknown): Promise<unknown> };

/**
 * The socket's tools, each registered at construction by the plugin that owns what it reads (the vault's and the
 * server's here, the agents' by the agents plugin). Listed in the contract's order whatever order they were
 * registered in; a name registered twice is a wiring error
 */
export class SocketTools {
  private readonly tools = new Map<SocketToolName, AnyTool>();

  register<Args>(tool: SocketTool<Args>): void {
    const { name } = tool.info;
    if (this.tools.has(name)) throw new Error(`The socket tool ${name} is already registered`);
    this.tools.set(name, {
      info: tool.info,
      run: (caller, raw) => tool.call(caller, parseArgs(tool.args, name, raw)),
    });
  }

  /** `tools/list`: the contract's order */
  list(): SocketToolInfo[] {
    return SocketToolNameSchema.options.flatMap((name) => {
      const tool = this.tools.get(name);
      return tool ? [tool.info] : [];
    });
  }

  /** Tools of the contract nobody registered (checked once the app is ready: a start without one fails) */
  missing(): SocketToolName[] {
    return SocketToolNameSchema.options.filter((name) => !this.tools.has(name));
  }

  /** Runs a tool; resolves with the value sent as `result.content[0].text` (JSON) */
  async call(caller: ToolCaller, name: SocketToolName, args: unknown): Promise<unknown> {
    const tool = this.tools.get(name);
    if (!tool) throw new Error(`The socket tool ${name} is not registered`);
    return tool.run(caller, args);
  }
}

function parseArgs<T>(schema: z.ZodType<T>, tool: string, args: unknown): T {
  const parsed = schema.safeParse(args ?? {});
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const where = issue?.path.length ? `${issue.path.join('.')}: ` : '';
  throw new InvalidToolArgumentsError(
    `Invalid arguments for ${tool}: ${where}${issue?.message ?? 'invalid'}`,
  );
}

/** A tool with no arguments */
export const NoArgsSchema = z.object({});

/** A refusal (404 for a foreign agent…) is the tool's answer ({success:false}), like the connection tests' */
export async function asData(run: () => Promise<unknown>): Promise<unknown> {
  try {
    return { success: true, data: await run() };
  } catch (err) {
    if (err instanceof HttpError) return { success: false, error: err.message };
    throw err;
  }
}

/** The exchange's or the vault's refusal is the tool's answer ({success:false}), as the browser expects it */
async function asReply(run: () => Promise<{ data: ConnectionTestReply['data']; message: string }>) {
  try {
    const { data, message } = await run();
    return { success: true, data, message } satisfies ConnectionTestReply;
  } catch (err) {
    if (err instanceof HttpError) return { success: false, error: err.message } satisfies ConnectionTestReply;
    throw err;
  }
}

const TestConnectionArgsSchema = z.object({
  api_key: z.string({ error: 'api_key must be a string' }).trim().min(1, 'api_key is required'),
  secret_key: z.string({ error: 'secret_key must be a string' }).trim().min(1, 'secret_key is required'),
  testnet: z.boolean({ error: 'testnet must be true or false' }).default(false),
});

/** The tools the socket plugin answers itself: the vault's connection tests and this server's health */
export function registerCoreSocketTools(
  tools: SocketTools,
  deps: {
    credentials: CredentialsService;
    /** The caller's account for one tool call (`EnvironmentService.accountOf`): the edge of a socket call */
    accountOf(userId: string, environment?: TradingEnvironment): Promise<TradingAccount>;
    status(): Record<string, unknown>;
  },
): void {
  tools.register({
    info: {
      name: 'test_binance_connection',
      description: "Tests Binance USDⓈ-M futures API keys against the exchange's account endpoint",
      inputSchema: {
        type: 'object',
        properties: {
          api_key: { type: 'string' },
          secret_key: { type: 'string' },
          testnet: { type: 'boolean', default: false },
        },
        required: ['api_key', 'secret_key'],
      },
    },
    args: TestConnectionArgsSchema,
    // Through the vault and the exchange router like every keyed call: `testnet: true` tests the keys on the
    // testnet environment's host whatever the user is on; otherwise on the user's current environment's
    call: (caller, a) =>
      asReply(async () =>
        deps.credentials.validate(await deps.accountOf(caller.userId, a.testnet ? 'testnet' : undefined), {
          api_key: a.api_key,
          secret_key: a.secret_key,
          region: 'global',
        }),
      ),
  });
  tools.register({
    info: {
      name: 'get_account_balance',
      description: 'Balances of the Binance futures account whose keys are stored for the signed-in user',
      inputSchema: { type: 'object', properties: {} },
    },
    args: NoArgsSchema,
    call: (caller) =>
      asReply(async () => {
        const account = await deps.accountOf(caller.userId);
        await deps.credentials.get(account); // "No Binance credentials stored…" when there are none
        return deps.credentials.testConnection(account, null);
      }),
  });
  tools.register({
    info: {
      name: 'get_server_status',
      description: 'Health of this server: uptime, database driver, connected sockets',
      inputSchema: { type: 'object', properties: {} },
    },
    args: NoArgsSchema,
    call: async () => ({ success: true, data: deps.status() }),
  });
}
