import { commentJson, type FakeStory } from "./fake-shortcut-data.js";

const NOT_FOUND = { message: "Resource not found.", tag: "not_found" };

/**
 * `PUT /api/v3/stories/{story-public-id}/comments/{comment-public-id}` with
 * `{ text }` (UpdateStoryComment): 200 with the comment; 404 for an unknown
 * story or comment; 400 without `text` or with keys it does not take.
 * Undefined for any other path, which the other routes answer.
 */
export function updateStoryCommentRoute(
  method: string,
  path: string,
  body: Record<string, unknown> | undefined,
  stories: ReadonlyMap<number, FakeStory>,
): { status: number; body: unknown } | undefined {
  const route = /^\/api\/v3\/stories\/(\d+)\/comments\/(\d+)$/.exec(path);
  if (route === null) return undefined;
  if (method !== "PUT")
    return { status: 405, body: { message: `${method} is not allowed here`, tag: "method_not_allowed" } };
  const story = stories.get(Number(route[1]));
  const comment = story?.comments.find((c) => c.id === Number(route[2]));
  if (story === undefined || comment === undefined) return { status: 404, body: NOT_FOUND };
  const unknown = Object.keys(body ?? {}).filter((k) => k !== "text");
  if (body === undefined || typeof body.text !== "string" || body.text === "" || unknown.length > 0)
    return { status: 400, body: { message: "text is required; unknown keys are refused", tag: "bad_request" } };
  comment.text = body.text;
  return { status: 200, body: commentJson(story.id, comment) };
}
