FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 DJANGO_SETTINGS_MODULE=pablo.settings
WORKDIR /app
COPY pyproject.toml README.md ./
COPY pablo ./pablo
COPY games ./games
COPY replays ./replays
RUN pip install --no-cache-dir .
COPY . .
RUN DJANGO_SECRET_KEY=build python manage.py collectstatic --noinput -v0 \
    && useradd --create-home --uid 1000 pablo \
    && mkdir -p /app/var && chown -R pablo /app/var
# Processes run unprivileged; var/ (beat schedule, replay cache) is theirs.
USER pablo
EXPOSE 8000
CMD ["gunicorn", "pablo.wsgi", "--bind", "0.0.0.0:8000"]
