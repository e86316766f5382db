import { z } from 'zod';
import { RemoteNameSchema } from '../runtime-config';
import type { PageRoute } from './page-routes';

/** The rules of a route table entry (`page-routes.json`); the table's test holds every entry to them */
export const PageRouteSchema = z
  .object({
    path: z
      .string()
      .regex(/^(\/([a-z0-9-]+|:[a-zA-Z]+))+$/, 'a path is /-separated lower-case words and :params'),
    title: z.string().min(1),
    remote: RemoteNameSchema,
    module: z.string().regex(/^\.\/[A-Z][A-Za-z]*Page$/, 'an exposed page module reads ./SomethingPage'),
    source: z
      .string()
      .regex(/^\.\/src\/app\/routes\/[a-z-]+\.tsx$/, 'a page lives in ./src/app/routes/<name>.tsx'),
  })
  .strict() satisfies z.ZodType<PageRoute>;
