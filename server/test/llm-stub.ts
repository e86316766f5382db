/**
 * The body of an OpenAI chat completion from `model` whose one message calls the tool `name` with `args` (a string
 * is sent as is: malformed JSON), as the LLM stubs of the reviewer's tests answer
 */
export function toolCallCompletion(
  name: string,
  args: unknown,
  usage = { prompt_tokens: 300, completion_tokens: 40 },
  model = 'stub-model',
) {
  return {
    id: 'chatcmpl-1',
    object: 'chat.completion',
    created: 1,
    model,
    choices: [
      {
        index: 0,
        finish_reason: 'tool_calls',
        message: {
          role: 'assistant',
          content: null,
          tool_calls: [
            {
              id: 'call_1',
              type: 'function',
              function: { name, arguments: typeof args === 'string' ? args : JSON.stringify(args) },
            },
          ],
        },
      },
    ],
    usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
  };
}
