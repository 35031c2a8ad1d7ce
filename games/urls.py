from django.urls import path

from games import views, views_rack, views_ranked

urlpatterns = [
    path("", views.home, name="home"),
    path("rooms/new/", views.room_new, name="room_new"),
    path("rooms/join/<str:code>/", views.room_join, name="room_join"),
    path("rooms/<int:room_id>/", views.room_detail, name="room"),
    path("rooms/<int:room_id>/seats/take/", views.seat_take, name="seat_take"),
    path("rooms/<int:room_id>/seats/bot/", views.seat_add_bot, name="seat_add_bot"),
    path("rooms/<int:room_id>/leave/", views.seat_leave, name="seat_leave"),
    path("rooms/<int:room_id>/start/", views.match_start, name="match_start"),
    path("matches/", views.match_list, name="match_list"),
    path("matches/<int:match_id>/", views.match_detail, name="match"),
    path("matches/<int:match_id>/rack/", views_rack.rack_check, name="match_rack"),
    path("leaderboard/", views_ranked.leaderboard, name="leaderboard"),
    path("healthz/", views.healthz, name="healthz"),
]
