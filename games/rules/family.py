"""The Pablo family (pablo, pablo-50, tamalou, cabo): one engine, four presets. (Being written.)"""
