"""Tests of the replay layer."""
