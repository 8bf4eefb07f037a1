"""What several page forms share: the phone's number keypad."""

NUMERIC = {"inputmode": "numeric", "pattern": "[0-9]*", "autocomplete": "off"}
