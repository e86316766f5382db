import { AGENT_REVIEW_VERDICTS } from '@kestrel/contracts/agents';
import type { AgentDecision } from '@kestrel/engine';
import type {
  ChatCompletionCreateParamsNonStreaming,
  ChatCompletionMessage,
  ChatCompletionTool,
} from 'openai/resources/chat/completions';
import { z } from 'zod';
import type { AgentReviewVerdict } from './reviewer';

/** The one tool the model may call (the ai-agent reference, B1 item 7) */
export const REVIEW_TOOL = 'submit_review';
/** Same prompt, same seed, temperature 0: as repeatable as the provider allows */
export const REVIEW_SEED = 18;
/** The largest contributions shown to the model: enough to judge, short enough to stay cheap */
const CONTRIBUTIONS_SHOWN = 12;
/** The rationale kept from the model (longer ones are cut: it is shown on the page, not read by programs) */
const RATIONALE_MAX = 2_000;

const reviewTool: ChatCompletionTool = {
  type: 'function',
  function: {
    name: REVIEW_TOOL,
    description:
      'Submit your review of the proposed entry. approve keeps its size, reduce shrinks it by sizeMultiplier ' +
      '(strictly between 0 and 1), veto cancels it. You cannot enlarge a trade or propose another one.',
    parameters: {
      type: 'object',
      properties: {
        verdict: { type: 'string', enum: [...AGENT_REVIEW_VERDICTS] },
        sizeMultiplier: {
          type: 'number',
          minimum: 0,
          maximum: 1,
          description: '1 for approve, between 0 and 1 for reduce, 0 for veto',
        },
        rationale: { type: 'string', description: 'Why, in one to three sentences' },
        citedFeatures: {
          type: 'array',
          items: { type: 'string' },
          description: 'Ids of the features your verdict rests on, from the decision',
        },
      },
      required: ['verdict', 'sizeMultiplier', 'rationale', 'citedFeatures'],
      additionalProperties: false,
    },
  },
};

const SYSTEM_PROMPT = [
  'You are the risk reviewer of an automated futures trading agent.',
  'A supervised model proposed the ENTRY below; deterministic risk rules run after you whatever you answer.',
  `Answer only by calling the tool ${REVIEW_TOOL} exactly once.`,
  'You may approve the entry, reduce its size, or veto it. You can never enlarge it, reverse it or propose another trade.',
  'Judge only from the figures given; do not invent data. When in doubt, reduce or veto.',
].join(' ');

/** The chat request for one decision (also what is stored as the exchange's request) */
export function reviewRequest(
  model: string,
  decision: AgentDecision,
  context: Record<string, unknown>,
): ChatCompletionCreateParamsNonStreaming {
  const contributions = [...decision.contributions]
    .sort((a, b) => Math.abs(b.contribution) - Math.abs(a.contribution))
    .slice(0, CONTRIBUTIONS_SHOWN)
    .map((c) => ({ id: c.id, value: c.value, contribution: c.contribution, available: c.available }));
  const proposal = {
    barTime: new Date(decision.barTime).toISOString(),
    action: decision.action,
    sizeFraction: decision.sizeFraction,
    stopPct: decision.stopPct,
    pUp: decision.pUp,
    pDown: decision.pDown,
    threshold: decision.threshold,
    expectedEdge: decision.expectedEdge,
    dissimilarity: decision.dissimilarity,
    predictionZ: decision.predictionZ,
    modelAgeHours: decision.modelAgeHours,
    reasonCodes: decision.reasonCodes,
    gates: decision.gates,
    topContributions: contributions,
  };
  return {
    model,
    temperature: 0,
    seed: REVIEW_SEED,
    messages: [
      { role: 'system', content: SYSTEM_PROMPT },
      { role: 'user', content: JSON.stringify({ proposal, context }) },
    ],
    tools: [reviewTool],
    tool_choice: 'auto',
  };
}

const ReviewArgumentsSchema = z
  .object({
    verdict: z.enum(AGENT_REVIEW_VERDICTS),
    sizeMultiplier: z.number().min(0).max(1),
    rationale: z.string(),
    citedFeatures: z.array(z.string()).max(100).default([]),
  })
  .refine((r) => r.verdict !== 'reduce' || (r.sizeMultiplier > 0 && r.sizeMultiplier < 1), {
    error: 'a reduce verdict needs a sizeMultiplier strictly between 0 and 1',
    path: ['sizeMultiplier'],
  });

export type ParsedReview =
  | {
      ok: true;
      verdict: AgentReviewVerdict;
      sizeMultiplier: number;
      rationale: string;
      citedFeatures: string[];
    }
  | { ok: false; error: string };

/**
 * Reads the model's answer: exactly one call of `submit_review` with arguments the schema accepts. Anything else is
 * an error (the caller vetoes). approve is always ×1 and veto ×0, whatever multiplier came with them; cited features
 * are kept only when the decision has them
 */
export function parseReview(
  message: ChatCompletionMessage | undefined,
  featureIds: ReadonlySet<string>,
): ParsedReview {
  const calls = message?.tool_calls ?? [];
  const call = calls[0];
  if (!call) return { ok: false, error: `the model answered without calling ${REVIEW_TOOL}` };
  const name = call.type === 'function' ? call.function.name : call.custom.name;
  if (name !== REVIEW_TOOL)
    return { ok: false, error: `the model called an unknown tool "${name.slice(0, 100)}"` };
  if (calls.length > 1) return { ok: false, error: `the model called ${REVIEW_TOOL} ${calls.length} times` };
  if (call.type !== 'function')
    return { ok: false, error: `the model called ${REVIEW_TOOL} as a custom tool` };
  let raw: unknown;
  try {
    raw = JSON.parse(call.function.arguments);
  } catch {
    return { ok: false, error: `the model's ${REVIEW_TOOL} arguments are not valid JSON` };
  }
  const parsed = ReviewArgumentsSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? `${issue.path.join('.')}: ` : '';
    return { ok: false, error: `the model's review is invalid (${where}${issue?.message ?? 'unreadable'})` };
  }
  const review = parsed.data;
  return {
    ok: true,
    verdict: review.verdict,
    sizeMultiplier: review.verdict === 'approve' ? 1 : review.verdict === 'veto' ? 0 : review.sizeMultiplier,
    rationale: review.rationale.slice(0, RATIONALE_MAX),
    citedFeatures: [...new Set(review.citedFeatures.filter((id) => featureIds.has(id)))],
  };
}
