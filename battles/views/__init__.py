"""Thin views: each checks who is asking, calls one service, renders partials."""
