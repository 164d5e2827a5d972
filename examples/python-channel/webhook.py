"""Delivery to the target: one JSON POST per notification, within the call's time budget.

A 429 is retried after its Retry-After, a 5xx or a network failure after a
short back-off; the channel gives up on its own before the host's deadline,
so the controller gets an answer (UNAVAILABLE) rather than a timeout.
"""
import json
import threading
import time
import urllib.error
import urllib.request

# Most chat webhooks take a few thousand characters; longer text is cut, never refused.
MAX_TEXT = 2000
BACKOFF_SECONDS = (0.25, 0.5, 1.0)


class DeliveryError(Exception):
    """The target did not take the notification; `retryable` tells the host whether a later try may work."""

    def __init__(self, message, retryable):
        super().__init__(message)
        self.retryable = retryable


def text_of(*parts):
    text = "\n".join(part for part in parts if part)
    return text if len(text) <= MAX_TEXT else text[: MAX_TEXT - 1] + "…"


def retry_after_seconds(error):
    header = error.headers.get("Retry-After") if error.headers else None
    try:
        return max(0.0, float(header)) if header is not None else 1.0
    except ValueError:
        return 1.0


def post(url, text, budget_end, stopping: threading.Event):
    """POSTs {"content": text} to url until it is taken or budget_end (time.monotonic()) is reached."""
    body = json.dumps({"content": text}, ensure_ascii=False).encode("utf-8")
    attempt = 0
    while True:
        left = budget_end - time.monotonic()
        if left <= 0 or stopping.is_set():
            raise DeliveryError("the target did not answer in time; gave up before the call's deadline", True)
        request = urllib.request.Request(url, data=body, method="POST", headers={"content-type": "application/json"})
        try:
            # The timeout closes a connection the target leaves hanging, before the deadline.
            with urllib.request.urlopen(request, timeout=left) as answer:
                answer.read()
                return
        except urllib.error.HTTPError as error:
            if error.code != 429 and error.code < 500:
                raise DeliveryError(f"the target refused the notification: HTTP {error.code}", False) from error
            wait = retry_after_seconds(error) if error.code == 429 else BACKOFF_SECONDS[min(attempt, 2)]
            reason = f"HTTP {error.code}"
        except (urllib.error.URLError, OSError) as error:
            wait, reason = BACKOFF_SECONDS[min(attempt, 2)], f"no answer ({error})"
        if time.monotonic() + wait >= budget_end:
            raise DeliveryError(f"the target is unavailable ({reason}); gave up before the call's deadline", True)
        attempt += 1
        # Shutdown ends the wait at once.
        stopping.wait(wait)
