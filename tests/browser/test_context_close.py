"""A browser context that never closes stalls nothing: the fixture gives up on it (conftest.close_context)."""

import signal
import time

import pytest

from tests.browser.conftest import close_context


class Hanging:
    def close(self):
        time.sleep(60)  # what Chromium did now and then with a busy service worker


class Closing:
    closed = False

    def close(self):
        self.closed = True


def test_a_close_that_never_answers_is_given_up_with_a_warning_and_the_runs_alarm_put_back():
    signal.setitimer(signal.ITIMER_REAL, 100)  # as pytest-timeout's alarm for this test
    try:
        started = time.monotonic()
        with pytest.warns(UserWarning, match="did not close a browser context within 0.2 s"):
            close_context(Hanging(), seconds=0.2)
        assert time.monotonic() - started < 5
        remaining, _ = signal.getitimer(signal.ITIMER_REAL)
        assert 90 < remaining <= 100
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)


def test_a_close_that_answers_closes():
    context = Closing()
    close_context(context)
    assert context.closed
