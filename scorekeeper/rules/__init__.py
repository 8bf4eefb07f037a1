"""The rules of Chicken Foot as the scorekeeper applies them.

Plain Python with no Django import and no database: models, forms, serializers and
views call these functions and never re-implement a rule.
"""
