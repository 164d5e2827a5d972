#!/bin/sh
# The instant engine of `npm run bench:controller`: writes a successful result and exits.
printf '%s' '{"success":true,"summary":"bench run","pull_request_url":"https://github.com/acme/shop/pull/1"}' > "$ERRAND_RESULT_FILE"
