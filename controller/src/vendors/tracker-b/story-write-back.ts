import type { TaskResult, Ticket } from "@errand/channel-sdk";
import type { Story } from "@shortcut/client";
import { NotFoundError } from "../../errors.js";
import type { TaskRun } from "../../runs/task-run.js";
import type { PollAdapter, PollContext } from "../../sources/polling/poll-adapter.js";
import { type CommentStep, commentMarker, finishedComment, startedComment } from "./story-comments.js";
import type { TrackerBApi } from "./tracker-b-api.js";
import type { TrackerBPlan } from "./tracker-b-plan.js";

/** The write-back half of the adapter. */
export type StoryWriteBack = Pick<PollAdapter, "pickedUp" | "finished">;

/**
 * Spec 3 for tracker B. On pick-up: a story in a trigger state moves to its
 * workflow's in-progress state, then a comment. When the run ends: on
 * success the story moves to `completed_state_name` when configured, then
 * a comment with the pull request link; on failure a comment with the
 * reason (the state stays). Each step reads the story first and does only
 * what is missing, and its comment, posted last, carries the run's marker:
 * a repeated call (the same event twice, a restart) changes nothing.
 * Calls for one story run one after another, so a slow pick-up cannot land
 * after the run's end. Without `comments` (the progress comment tells the
 * story), the states only.
 */
export function createStoryWriteBack(api: TrackerBApi, plan: () => TrackerBPlan, comments = true): StoryWriteBack {
  const queues = new Map<string, Promise<void>>();
  const serial = (key: string, work: () => Promise<void>): Promise<void> => {
    const next = (queues.get(key) ?? Promise.resolve()).catch(() => {}).then(work);
    queues.set(key, next);
    const forget = () => {
      if (queues.get(key) === next) queues.delete(key);
    };
    next.then(forget, forget);
    return next;
  };

  const posted = (story: Story, run: TaskRun, step: CommentStep) =>
    story.comments.some((c) => c.external_id === commentMarker(run, step));

  return {
    pickedUp: (ticket, run, ctx) =>
      serial(ticket.id, async () => {
        const id = storyId(ticket);
        const story = await api.getStory(id, ctx);
        if (posted(story, run, "started")) return;
        const p = plan();
        const trigger = p.triggers.get(story.workflow_state_id);
        let movedTo: string | undefined;
        if (trigger !== undefined) {
          await api.moveStory(id, trigger.inProgressId, ctx);
          movedTo = p.stateLabel(trigger.inProgressId);
        } else if (!p.inProgress.has(story.workflow_state_id)) {
          note(ctx, "the story is not in a trigger state; its state is left as is", story, p);
        }
        if (comments) await api.addComment(id, startedComment(run, movedTo), commentMarker(run, "started"), ctx);
      }),
    finished: (ticket, run, result: TaskResult, ctx) =>
      serial(ticket.id, async () => {
        const id = storyId(ticket);
        const story = await api.getStory(id, ctx);
        if (posted(story, run, "finished")) return;
        const p = plan();
        let movedTo: string | undefined;
        if (result.success && p.completed.size > 0) {
          const target = p.completed.get(story.workflow_id);
          if (target === undefined)
            note(ctx, "the story's workflow has no completed state; its state is left as is", story, p);
          else if (target !== story.workflow_state_id) {
            await api.moveStory(id, target, ctx);
            movedTo = p.stateLabel(target);
          }
        }
        if (comments)
          await api.addComment(id, finishedComment(run, result, movedTo), commentMarker(run, "finished"), ctx);
      }),
  };
}

function note(ctx: PollContext, message: string, story: Story, plan: TrackerBPlan): void {
  ctx.logger.info(message, { story: story.id, state: plan.stateLabel(story.workflow_state_id) });
}

/** The story id of a tracker B ticket (the intake and the poller both use the story's number). */
function storyId(ticket: Ticket): number {
  const id = /^\d+$/.test(ticket.id) ? Number(ticket.id) : Number.NaN;
  if (!Number.isSafeInteger(id)) {
    throw new NotFoundError(
      `tracker B ticket ${JSON.stringify(ticket.id)} is not a story id, so nothing can be written back to it`,
      {
        hint: "tracker B tickets carry the story's number; a ticket with another id came from elsewhere",
      },
    );
  }
  return id;
}
