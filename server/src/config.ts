import { z } from 'zod';

const ConfigSchema = z.object({
  host: z.string().default('127.0.0.1'),
  port: z.coerce.number().int().min(0).max(65535).default(8000),
  /** Origins of the shell allowed by CORS, comma separated */
  corsOrigins: z
    .string()
    .default('http://127.0.0.1:3000,http://localhost:3000')
    .transform((s) =>
      s
        .split(',')
        .map((o) => o.trim())
        .filter(Boolean),
    ),
  logLevel: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});
export type ServerConfig = z.infer<typeof ConfigSchema>;

/** Reads configuration from the environment; every key has an embedded default */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const parsed = ConfigSchema.safeParse({
    host: env.KESTREL_HOST,
    port: env.KESTREL_PORT ?? env.PORT,
    corsOrigins: env.KESTREL_CORS_ORIGINS,
    logLevel: env.KESTREL_LOG_LEVEL,
  });
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`Invalid server configuration: ${issues}`);
  }
  return parsed.data;
}
